/** Types of bundle-server.mjs, for the TypeScript that imports it (its test). */
export const EXTERNAL: readonly string[];
/** Bundles `entry` (a file of `ownDir`) in place: the entry is overwritten, chunks are written beside it. */
export function bundleServer(options: { entry: string; ownDir: string; external?: readonly string[] }): Promise<void>;
