import { createHook } from 'node:async_hooks';

/**
 * One entry of `process.nextTick`'s queue, held for the life of the process. Node's HTTP and stream
 * code calls `nextTick` some nine times per request, and each call builds its queue entry as an
 * object literal with two symbol keys (`nextTick` in Node's lib/internal/process/task_queues.js:
 * https://github.com/nodejs/node/blob/v22.x/lib/internal/process/task_queues.js). V8 remembers that
 * literal's hidden classes ("maps") weakly. A full collection at a moment when no entry is queued
 * (an idle server, after a burst) frees those maps; the next entry then gets new ones, V8 marks the
 * literal megamorphic for good, and from then on every `nextTick` builds its entry through a
 * runtime call, a share of every answer's CPU (docs/decisions/019). Node 20 and 22 do this; 24 does
 * not. One live entry keeps its map, and through its back pointers the maps before it, alive, so
 * the literal stays on its fast path.
 *
 * It must run before the first such collection: main.ts imports it first. It expires when the
 * oldest Node the shop supports (package.json's engines) is 24: tick-shape.test.ts then fails, and
 * this file and its import go.
 */
let kept: object | undefined;
const capture = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === 'TickObject') kept ??= resource;
  },
});
capture.enable();
process.nextTick(() => {});
capture.disable();

/** The entry kept, exported so that it plainly stays reachable for as long as the module is loaded. */
export const keptTickObject: object | undefined = kept;
