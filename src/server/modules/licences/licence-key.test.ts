import { describe, expect, it } from 'vitest';
import {
  canonicalKey,
  hashLicenceKey,
  isUsable,
  KEY_CHARS,
  keyTail,
  licenceStatus,
  maskKey,
  newLicenceKey,
} from './licence-key.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('licence keys', () => {
  it('are 32 base32 characters (160 bits) in groups of four, from an alphabet without look-alikes', () => {
    const key = newLicenceKey();
    expect(key).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){7}[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(KEY_CHARS * Math.log2(ALPHABET.length)).toBeGreaterThanOrEqual(128);
  });

  it('spread evenly over the alphabet and never repeat', () => {
    const keys = Array.from({ length: 2000 }, newLicenceKey);
    expect(new Set(keys).size).toBe(keys.length);
    const counts = new Map<string, number>();
    for (const ch of keys.join('').replace(/-/g, '')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(32);
    const expected = (2000 * KEY_CHARS) / 32;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.15);
  });

  it('hash alike however a person retyped them (case, spaces, dashes, O for 0, I or L for 1)', () => {
    const key = '0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ';
    expect(canonicalKey(' o123 4567 89ab cdef ghjk mnpq rstv wxyz ')).toBe(key);
    expect(canonicalKey('O123456789ABCDEFGHJKMNPQRSTVWXYZ')).toBe(key);
    expect(hashLicenceKey('0I23-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ')).toBe(hashLicenceKey(key));
    expect(hashLicenceKey('0L23-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ')).toBe(hashLicenceKey(key));
    expect(hashLicenceKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashLicenceKey(key)).not.toBe(hashLicenceKey(key.replace('WXYZ', 'WXY0')));
  });

  it('show the owner only their last group', () => {
    const key = newLicenceKey();
    expect(maskKey(keyTail(key))).toBe(`****-****-****-****-****-****-****-${key.slice(-4)}`);
  });
});

describe('licence status', () => {
  it('is revoked before disabled before active (activations) or inactive (none)', () => {
    expect(licenceStatus({ revoked: true, disabled: true, activations: 2 })).toBe('revoked');
    expect(licenceStatus({ revoked: false, disabled: true, activations: 2 })).toBe('disabled');
    expect(licenceStatus({ revoked: false, disabled: false, activations: 2 })).toBe('active');
    expect(licenceStatus({ revoked: false, disabled: false, activations: 0 })).toBe('inactive');
  });

  it('is usable only when active or inactive', () => {
    expect(['active', 'inactive', 'disabled', 'expired', 'revoked'].filter((s) => isUsable(s as never))).toEqual([
      'active',
      'inactive',
    ]);
  });
});
