import { createHash, randomBytes } from 'node:crypto';
import type { LicenceStatus } from '../../../common/schemas/licences.ts';

/** Crockford's base32: no I, L, O or U, so a key read aloud or retyped has no look-alikes. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const KEY_BYTES = 20;
const GROUP = 4;
/** The length of a key's characters without its dashes. */
export const KEY_CHARS = (KEY_BYTES * 8) / 5;

/** A new key: 160 random bits as 32 base32 characters in groups of four (`7K3M-...`). */
export function newLicenceKey(): string {
  const bytes = randomBytes(KEY_BYTES);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return groupKey(out);
}

const groupKey = (chars: string) => chars.match(new RegExp(`.{1,${GROUP}}`, 'g'))!.join('-');

/**
 * The form a key is hashed in: what a person or a client may have changed (letter case, spaces,
 * dashes, the look-alikes O/I/L) undone. Any text gets a form, so every lookup costs the same.
 */
export function canonicalKey(input: string): string {
  const chars = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return chars.length === KEY_CHARS ? groupKey(chars) : chars;
}

/** SHA-256 of the canonical key, the only form of it the database can search. */
export function hashLicenceKey(input: string): string {
  return createHash('sha256').update(canonicalKey(input)).digest('hex');
}

/** The key's last group, all the owner console shows of it. */
export const keyTail = (key: string): string => key.slice(-GROUP);

/** The masked form: every group but the last hidden. */
export const maskKey = (tail: string): string =>
  `${Array.from({ length: KEY_CHARS / GROUP - 1 }, () => '****').join('-')}-${tail}`;

export type { LicenceStatus };

/**
 * A key's status: revoked (refunded, or its seat freed) before disabled (the owner's switch)
 * before whether it has activations. Only active and inactive keys are valid.
 */
export function licenceStatus(key: { revoked: boolean; disabled: boolean; activations: number }): LicenceStatus {
  if (key.revoked) return 'revoked';
  if (key.disabled) return 'disabled';
  return key.activations > 0 ? 'active' : 'inactive';
}

export const isUsable = (status: LicenceStatus): boolean => status === 'active' || status === 'inactive';

/** A key's activation limit when its tier does not set one (Solo, an owner's grant). */
export const DEFAULT_ACTIVATION_LIMIT = 3;
