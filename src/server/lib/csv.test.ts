import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.ts';

describe('CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['Acme, Inc.', '"Acme, Inc."'],
    ['two\nlines', '"two\nlines"'],
    ['Zoë Müller', 'Zoë Müller'],
    ['a=b', 'a=b'],
  ])('writes %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes a line with CRLF, amounts as numbers and null as empty', () => {
    expect(csvLine(['=1', { number: '-49.00' }, null, 'x'])).toBe("'=1,-49.00,,x\r\n");
  });
});
