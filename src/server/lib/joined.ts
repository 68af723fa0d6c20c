/** The size of the slabs answers are cut from. */
const SLAB_BYTES = 256 * 1024;
/** Longer answers get a buffer of their own: a slab holds at least eight. */
const LONGEST_CUT = SLAB_BYTES / 8;

let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let used = 0;

/**
 * `length` bytes for an answer that is sent and then dropped (a kept page around one visitor's
 * data), their content left for the caller to write. A page is larger than the 4 KiB Node's own
 * pool cuts from, so `Buffer.allocUnsafe` would allocate and free a backing store of its own per
 * answer; here answers are cut one after another from a larger slab, which is freed once no answer
 * cut from it is referenced. Like every buffer from Node's pool, the result shares its memory: it
 * must not be kept.
 */
export function cut(length: number): Buffer {
  if (length > LONGEST_CUT) return Buffer.allocUnsafe(length);
  if (used + length > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    used = 0;
  }
  const target = slab.subarray(used, used + length);
  // The next cut starts 8-aligned, as the pool's do.
  used += (length + 7) & ~7;
  return target;
}

/** The pieces joined into one buffer, as `Buffer.concat` joins them, cut for an answer (`cut`). */
export function joined(pieces: readonly Uint8Array[]): Buffer {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const target = cut(length);
  let at = 0;
  for (const piece of pieces) {
    target.set(piece, at);
    at += piece.length;
  }
  return target;
}
