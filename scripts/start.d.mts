/** Types of start.mjs, for the TypeScript that imports it (the bench). */
export function buildIsStale(): boolean;
