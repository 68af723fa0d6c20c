import zlib from 'node:zlib';
import { cut, joined } from './joined.ts';

/**
 * One gzip member (RFC 1952) of `before + middle + after`, where `before` and `after` are compressed
 * once and kept, and `middle` (a few hundred bytes that differ per response) is stored between them
 * as it is, in deflate's uncompressed blocks (RFC 1951 §3.2.4). `before` ends on a full flush, so the
 * stored blocks start byte-aligned, and `after` is its own deflate stream: it never refers back into
 * what precedes it, so the parts join into one valid stream. The checksum of the whole is combined
 * from the parts' checksums, as zlib's `crc32_combine` does, so no byte of the kept parts is read per
 * response.
 */
export class GzipSplice {
  readonly #head: Buffer;
  readonly #tail: Buffer;
  readonly #crcBefore: number;
  readonly #crcAfter: number;
  /** Multiplies by x^(8·after.length) mod the CRC polynomial, by table: shifts a checksum past `after`. */
  readonly #pastAfter: Uint32Array;
  readonly #plainLength: number;

  constructor(before: Uint8Array, after: Uint8Array, level = zlib.constants.Z_BEST_COMPRESSION) {
    this.#head = Buffer.concat([
      GZIP_HEADER,
      zlib.deflateRawSync(before, { level, finishFlush: zlib.constants.Z_FULL_FLUSH }),
    ]);
    this.#tail = zlib.deflateRawSync(after, { level });
    this.#crcBefore = zlib.crc32(before);
    this.#crcAfter = zlib.crc32(after);
    this.#pastAfter = multiplierTable(x2nModP(after.length, 3));
    this.#plainLength = before.length + after.length;
  }

  /** The length in bytes of the gzip member around a middle of `middleLength` bytes. */
  byteLength(middleLength: number): number {
    const blocks = Math.max(1, Math.ceil(middleLength / STORED_MAX));
    return this.#head.length + blocks * STORED_HEADER + middleLength + this.#tail.length + TRAILER;
  }

  /**
   * The gzip bytes of `before + middle + after`, in one buffer to be sent and dropped (`cut`): the
   * kept head, the middle's stored block, the kept tail and the trailer written into it in place.
   */
  with(middle: Uint8Array | string): Buffer {
    const length = middle.length;
    if (length > STORED_MAX) return joined(this.pieces(middle));
    const head = this.#head;
    const tail = this.#tail;
    const target = cut(this.byteLength(length));
    target.set(head, 0);
    const start = head.length + STORED_HEADER;
    writeStoredHeader(target, length, head.length);
    if (typeof middle === 'string') target.write(middle, start, 'latin1');
    else target.set(middle, start);
    target.set(tail, start + length);
    this.#writeTrailer(target, start + length + tail.length, target.subarray(start, start + length));
    return target;
  }

  /**
   * The same bytes as `with()`, in pieces to be written one after another: the kept head as it is,
   * then one short piece made for this middle (its stored block, the kept tail and the trailer).
   * Written to a socket, they go out in one `writev` without a buffer the size of the page made and
   * copied per response (on this machine that buffer cost more than all the rest of the splice); each
   * piece is one write call on the response, so the short parts share one. A string `middle` is
   * written one byte per character (latin1): a token, say, with no encoding step of its own. A middle
   * over one stored block, or a tail too long to copy per response, gives the stored blocks and the
   * tail as pieces of their own.
   */
  pieces(middle: Uint8Array | string): Uint8Array[] {
    const length = middle.length;
    const tail = this.#tail;
    if (length > STORED_MAX || tail.length > SHORT_TAIL) {
      const bytes = typeof middle === 'string' ? Buffer.from(middle, 'latin1') : middle;
      const trailer = Buffer.allocUnsafe(TRAILER);
      this.#writeTrailer(trailer, 0, bytes);
      return [this.#head, ...storedBlocks(bytes), tail, trailer];
    }
    // Short enough to come from Node's shared pool of small buffers.
    const rest = Buffer.allocUnsafe(STORED_HEADER + length + tail.length + TRAILER);
    writeStoredHeader(rest, length);
    if (typeof middle === 'string') rest.write(middle, STORED_HEADER, 'latin1');
    else rest.set(middle, STORED_HEADER);
    rest.set(tail, STORED_HEADER + length);
    this.#writeTrailer(
      rest,
      STORED_HEADER + length + tail.length,
      rest.subarray(STORED_HEADER, STORED_HEADER + length),
    );
    return [this.#head, rest];
  }

  /** The trailer at `offset`: CRC-32 and length of the whole, from the parts' kept checksums and the middle's bytes. */
  #writeTrailer(target: Buffer, offset: number, middle: Uint8Array): void {
    const crc = (multiplyBy(this.#pastAfter, zlib.crc32(middle, this.#crcBefore)) ^ this.#crcAfter) >>> 0;
    target.writeUInt32LE(crc, offset);
    target.writeUInt32LE((this.#plainLength + middle.length) % 2 ** 32, offset + 4);
  }
}

/**
 * `before + middle + after` as it is, for a client that takes no compression: the kept parts as
 * pieces of their own and the middle between them, as `GzipSplice.pieces` gives its bytes.
 */
export class PlainSplice {
  readonly #before: readonly Uint8Array[];
  readonly #after: readonly Uint8Array[];
  readonly #length: number;

  constructor(before: Uint8Array[], after: Uint8Array[]) {
    this.#before = before;
    this.#after = after;
    this.#length = [...before, ...after].reduce((sum, part) => sum + part.length, 0);
  }

  /** The length in bytes of the whole around a middle of `middleLength` bytes. */
  byteLength(middleLength: number): number {
    return this.#length + middleLength;
  }

  /** The pieces of the whole; a string `middle` is written one byte per character (latin1). */
  pieces(middle: Uint8Array | string): Uint8Array[] {
    const bytes = typeof middle === 'string' ? Buffer.from(middle, 'latin1') : middle;
    return [...this.#before, bytes, ...this.#after];
  }
}

// ID1 ID2, CM = deflate, no flags, no modification time, no extra flags, OS unknown.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const STORED_MAX = 0xffff;
/** A stored block's header: one byte of block type, then LEN and its complement. */
const STORED_HEADER = 5;
/** CRC-32 and ISIZE. */
const TRAILER = 8;
/** The longest compressed tail copied into each response's own piece (the pool gives up to 4 KiB). */
const SHORT_TAIL = 1024;

/** Non-final stored blocks holding `data` (BFINAL 0, BTYPE 00, then LEN and its complement). */
function storedBlocks(data: Uint8Array): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  for (let at = 0; at === 0 || at < data.length; at += STORED_MAX) {
    const chunk = data.subarray(at, at + STORED_MAX);
    blocks.push(storedHeader(chunk.length), chunk);
  }
  return blocks;
}

/** A non-final stored block's header for `length` (≤ 65535) bytes. */
function storedHeader(length: number): Buffer {
  const header = Buffer.allocUnsafe(STORED_HEADER);
  writeStoredHeader(header, length);
  return header;
}

function writeStoredHeader(target: Buffer, length: number, at = 0): void {
  target[at] = 0; // BFINAL 0, BTYPE 00: stored, the rest of the byte padding
  target.writeUInt16LE(length, at + 1);
  target.writeUInt16LE(~length & 0xffff, at + 3);
}

// CRC-32 arithmetic modulo its polynomial (reflected), after zlib's crc32.c.
const POLY = 0xedb88320;

/** a·b modulo the polynomial. */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/**
 * The products of a fixed `a` with each byte value at each of a checksum's four byte positions: the
 * product is linear in its other factor, so `a·b` is the XOR of four lookups (`multiplyBy`), where
 * `multModP` takes up to 32 rounds. Made once per kept page; each response then shifts its checksum
 * with four (multModP's loop was 1% of a page answer's CPU, perf).
 */
function multiplierTable(a: number): Uint32Array {
  const table = new Uint32Array(4 * 256);
  for (let position = 0; position < 4; position++) {
    for (let byte = 0; byte < 256; byte++) table[position * 256 + byte] = multModP(a, (byte << (8 * position)) >>> 0);
  }
  return table;
}

/** a·b modulo the polynomial, for the `a` of `table` (multiplierTable). */
function multiplyBy(table: Uint32Array, b: number): number {
  return (
    (table[b & 0xff]! ^
      table[256 + ((b >>> 8) & 0xff)]! ^
      table[512 + ((b >>> 16) & 0xff)]! ^
      table[768 + (b >>> 24)]!) >>>
    0
  );
}

/** x^(2^k) modulo the polynomial, for k = 0..31. */
const X2N: number[] = [];
for (let k = 0, p = 0x40000000; k < 32; k++, p = multModP(p, p)) X2N.push(p);

/** x^(n·2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000;
  for (; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) p = multModP(X2N[k & 31]!, p);
  }
  return p;
}
