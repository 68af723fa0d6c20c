import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.ts';

const SECRET = 'a-session-secret-of-at-least-32-characters';

describe('secret box (AES-256-GCM, key from SESSION_SECRET by HKDF)', () => {
  it('opens what it sealed, with a fresh IV each time: the same value never seals alike', () => {
    const box = createSecretBox(SECRET, 'totp');
    const a = box.seal('JBSWY3DPEHPK3PXP');
    const b = box.seal('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
    expect(a).toMatch(/^v1\./);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(a)).toBe('JBSWY3DPEHPK3PXP');
    expect(box.open(b)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('opens nothing changed since, sealed with another secret or purpose, or of an unknown version', () => {
    const box = createSecretBox(SECRET, 'totp');
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    const [version, iv, tag, body] = sealed.split('.') as [string, string, string, string];
    const flipped = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    expect(box.open([version, iv, tag, flipped(body)].join('.'))).toBeNull();
    expect(box.open([version, iv, flipped(tag), body].join('.'))).toBeNull();
    expect(box.open([version, flipped(iv), tag, body].join('.'))).toBeNull();
    expect(box.open(['v2', iv, tag, body].join('.'))).toBeNull();
    expect(box.open('not sealed at all')).toBeNull();
    expect(createSecretBox(`${SECRET}!`, 'totp').open(sealed)).toBeNull();
    expect(createSecretBox(SECRET, 'another purpose').open(sealed)).toBeNull();
  });
});
