import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSession, createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import { BUSY_MESSAGE, HASHING, hashingStats } from './passwords.ts';

// Limits off: what is measured here is the hashing queue alone, from one address.
let t: TestApp;
let url: string;
let session: { csrf: string; cookie: string };
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'off' });
  writeFileSync(path.join(t.dataDir, 'files/public/probe.txt'), 'a static file\n');
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  session = await browserSession(t.app);
});
afterAll(() => t.close());

const TOKENS = 3000;

/** Users each holding a live reset link `link-<i>` (the table keeps its SHA-256, as issueToken does). */
async function usersWithResetLinks(prefix: string, count: number) {
  await t.pool.query(
    `WITH u AS (
       INSERT INTO users (name, email, password_hash, email_verified_at)
       SELECT 'Flood ' || i, $1 || i || '@example.com', 'not-a-hash', now() FROM generate_series(1, $2::int) i
       RETURNING id, email)
     INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at)
     SELECT id, 'reset', encode(sha256(convert_to('link-' || split_part(email, '@', 1), 'UTF8')), 'hex'), now() + interval '1 hour'
     FROM u`,
    [prefix, count],
  );
  return Array.from({ length: count }, (_, i) => ({
    email: `${prefix}${i + 1}@example.com`,
    token: `link-${prefix}${i + 1}`,
  }));
}

function resetRequest(email: string, token: string) {
  return fetch(`${url}/api/reset-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf, cookie: session.cookie },
    body: JSON.stringify({
      email,
      token,
      password: 'torrent-new-password-7',
      password_confirmation: 'torrent-new-password-7',
    }),
  });
}

describe('bounded password hashing', () => {
  it('checks a reset link before hashing the new password: made-up links cost no hash', async () => {
    const [user] = await usersWithResetLinks('madeup', 1);
    const before = { ...hashingStats };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => resetRequest(user!.email, `made-up-link-${i}`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(422));
    expect((await answers[0]!.json()).message).toMatch(/invalid, was already used or has expired/);
    expect(hashingStats.hashed).toBe(before.hashed);
    // The real link still works afterwards.
    expect((await resetRequest(user!.email, user!.token)).status).toBe(200);
    expect(hashingStats.hashed).toBe(before.hashed + 1);
  });

  it('hashes at most 2 at once and answers the excess 429; a static file is served while hashes wait their turn', async () => {
    const links = await usersWithResetLinks('flood', TOKENS);
    hashingStats.peak = 0;
    let next = 0;
    let flooding = true;
    const statuses: Record<number, number> = {};
    let busyMessage = '';
    // 150 clients sending reset requests with live links back to back, until the probe is done.
    const flood = Array.from({ length: 150 }, async () => {
      while (flooding && next < links.length) {
        const link = links[next++]!;
        const res = await resetRequest(link.email, link.token);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const body = await res.json();
        if (res.status === 429) busyMessage = body.message;
      }
    });
    // The probe starts once the flood is under way and fetches a static file 30 times in a row.
    const probes: { waiting: number }[] = [];
    try {
      const hashedBefore = hashingStats.hashed;
      while (hashingStats.hashed < hashedBefore + 50) await new Promise((r) => setImmediate(r));
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`${url}/media/probe.txt`);
        expect(await res.text()).toBe('a static file\n');
        probes.push({ waiting: hashingStats.waiting });
      }
    } finally {
      flooding = false;
      await Promise.all(flood);
    }

    expect(hashingStats.peak).toBe(HASHING.concurrent);
    expect(Object.keys(statuses).sort()).toEqual(['200', '429']);
    expect(busyMessage).toBe(BUSY_MESSAGE);
    // Hashes waited in this queue, not on libuv's 4 threads, which static files also need: the file
    // was served while they waited. Unbounded, nothing waits here and the file queues behind every
    // hash in flight. (This shared machine's timings are too noisy for a test: `npm run bench`
    // measures the file's p99 while 100 resets a second arrive.)
    expect(probes.filter((p) => p.waiting > 0).length).toBeGreaterThanOrEqual(15);
  }, 60_000);
});
