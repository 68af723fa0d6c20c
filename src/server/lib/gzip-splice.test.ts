import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GzipSplice } from './gzip-splice.ts';

const page = (size: number) =>
  Buffer.from('<p>A kit for every stack.</p>\n'.repeat(Math.ceil(size / 30)).slice(0, size));

describe('GzipSplice', () => {
  it.each([
    ['a page and a short middle', page(40_000), Buffer.from('{"csrf":"abc"}'), page(9_000)],
    ['an empty middle', page(3_000), Buffer.alloc(0), page(2_000)],
    ['a middle longer than one stored block', page(1_000), randomBytes(150_000), page(1_000)],
    ['empty kept parts', Buffer.alloc(0), Buffer.from('only this'), Buffer.alloc(0)],
    ['bytes that do not compress', randomBytes(70_000), Buffer.from('x'), randomBytes(70_000)],
  ])(
    'makes one gzip member that inflates, checksum and length checked, to the whole: %s',
    (_name, before, middle, after) => {
      const splice = new GzipSplice(before, after);
      const spliced = splice.with(middle);
      // gunzip verifies the trailer's CRC-32 and length, and rejects a stream that does not end.
      expect(zlib.gunzipSync(spliced).equals(Buffer.concat([before, middle, after]))).toBe(true);
      expect(splice.byteLength(middle.length)).toBe(spliced.length);
    },
  );

  it.each([
    ['a token', 'abcdEFGH-0123456789_xyz'],
    ['latin1 characters, one byte each', 'caf\u00e9 \u00fc'],
    ['an empty middle', ''],
    ['a middle longer than one stored block', 'x'.repeat(70_000)],
  ])('takes a string middle, one byte per character: %s', (_name, middle) => {
    const splice = new GzipSplice(page(5_000), page(4_000));
    const whole = Buffer.concat([page(5_000), Buffer.from(middle, 'latin1'), page(4_000)]);
    expect(zlib.gunzipSync(splice.with(middle)).equals(whole)).toBe(true);
    expect(splice.with(middle).equals(splice.with(Buffer.from(middle, 'latin1')))).toBe(true);
    expect(splice.byteLength(middle.length)).toBe(splice.with(middle).length);
  });

  it.each([65_535, 65_536, 131_070, 131_071])('knows its length around a middle of %i bytes', (size) => {
    const splice = new GzipSplice(page(100), page(100));
    expect(splice.byteLength(size)).toBe(splice.with('y'.repeat(size)).length);
  });

  it('gives the same bytes in two pieces: the kept head as it is, and one short piece made per middle', () => {
    const before = page(30_000);
    const after = Buffer.from(`","user":{}}</script>\n  </body>\n</html>\n`);
    const splice = new GzipSplice(before, after);
    const pieces = splice.pieces('abc-def');
    expect(pieces).toHaveLength(2);
    expect(Buffer.concat(pieces).equals(splice.with('abc-def'))).toBe(true);
    // The head is the kept compressed part: the same object for every middle.
    const other = splice.pieces('another-token');
    expect(other[0]).toBe(pieces[0]);
    expect(other[1]!.length - pieces[1]!.length).toBe('another-token'.length - 'abc-def'.length);
    expect(zlib.gunzipSync(Buffer.concat(other)).toString()).toBe(`${before}another-token${after}`);
  });

  it.each([
    ['a long tail', page(1_000), 'abc-def', randomBytes(4_000)],
    ['a middle longer than one stored block', page(1_000), 'y'.repeat(70_000), page(100)],
  ])('keeps the tail as a piece of its own after %s', (_name, before, middle, after) => {
    const splice = new GzipSplice(before, after);
    const pieces = splice.pieces(middle);
    expect(pieces.length).toBeGreaterThan(2);
    // The kept tail, the same object each time.
    expect(splice.pieces(middle).at(-2)).toBe(pieces.at(-2));
    expect(zlib.gunzipSync(Buffer.concat(pieces)).equals(Buffer.concat([before, Buffer.from(middle), after]))).toBe(
      true,
    );
    expect(Buffer.concat(pieces).length).toBe(splice.byteLength(middle.length));
  });

  it('keeps the parts: only the middle differs between two responses', () => {
    const splice = new GzipSplice(page(20_000), page(20_000));
    for (const middle of ['{"csrf":"one"}', '{"csrf":"two","user":{"name":"Ann"}}']) {
      expect(zlib.gunzipSync(splice.with(Buffer.from(middle))).toString()).toBe(
        `${page(20_000)}${middle}${page(20_000)}`,
      );
    }
  });

  it('is about as small as compressing the whole page at once', () => {
    const before = page(40_000);
    const after = page(9_000);
    const middle = Buffer.from('{"csrf":"abc"}');
    const whole = zlib.gzipSync(Buffer.concat([before, middle, after]), { level: 9 });
    expect(new GzipSplice(before, after).with(middle).length).toBeLessThan(whole.length + 200);
  });
});
