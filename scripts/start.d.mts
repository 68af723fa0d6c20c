/** Types of start.mjs, for the TypeScript that imports it (the bench, the stack). */
export function buildIsStale(): boolean;
/** The Node flags the server runs with, before the script on the command line. */
export const SERVER_NODE_ARGS: readonly string[];
