import { describe, expect, it } from 'vitest';
import { joined } from './joined.ts';

describe('joined', () => {
  it('joins the pieces as Buffer.concat does, short and long', () => {
    const pieces = [Buffer.from('<html>'), new Uint8Array([1, 2, 3]), Buffer.alloc(0), Buffer.from('</html>')];
    expect(joined(pieces).equals(Buffer.concat(pieces))).toBe(true);
    const long = [Buffer.alloc(40_000, 7), Buffer.from('tail')];
    expect(joined(long).equals(Buffer.concat(long))).toBe(true);
  });

  it('never hands out the same bytes twice, across slabs', () => {
    const answers = Array.from({ length: 100 }, (_, i) => joined([Buffer.alloc(9_500, i), Buffer.from([i])]));
    answers.forEach((answer, i) => {
      expect(answer.length).toBe(9_501);
      expect(answer.every((byte) => byte === i)).toBe(true);
    });
  });
});
