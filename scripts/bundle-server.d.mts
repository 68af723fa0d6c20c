// Types of bundle-server.mjs, for the TypeScript that imports it (its test).
/** Bundles `entry` (a file of `ownDir`) in place: the entry is overwritten, chunks are written beside it. */
export function bundleServer(options: { entry: string; ownDir: string }): Promise<void>;
