import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../../../tests/setup/client.ts';
import { captureLog } from '../../../../tests/setup/log.ts';
import { startSmtpOutage, startSmtpServer } from '../../../../tests/setup/smtp.ts';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app.ts';
import type { Database } from '../../db/open.ts';
import { createLogger } from '../../server.ts';
import { createFileMailer, createSmtpMailer } from './mailer.ts';
import { deliverDueMail, retryDelaySeconds, startOutboxWorker } from './outbox.ts';

const silentLog = { info: () => {}, warn: () => {} };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test' });
});
afterAll(() => t.close());

describe('mail outbox over real SMTP', () => {
  it('keeps a mail through an SMTP outage and delivers it exactly once when the server is back', async () => {
    const { smtp, mailer } = await startSmtpOutage();

    const browser = await createClient(t.app);
    const res = await browser.post('/api/register', {
      name: 'Outage',
      email: 'outage@example.com',
      password: 'smtp-was-down-1',
    });
    expect(res.statusCode).toBe(200); // registration does not wait for mail
    expect(await t.deliverMail(mailer)).toBe(0);
    const { rows } = await t.pool.query(
      'SELECT attempts, last_error, next_attempt_at > now() AS later FROM mail_outbox WHERE "to" = \'outage@example.com\'',
    );
    expect(rows[0]).toMatchObject({ attempts: 1, later: true });
    expect(rows[0].last_error).toBeTruthy();

    await smtp.start();
    expect(await t.deliverMail(mailer)).toBe(0); // not due yet: backoff
    await t.pool.query('UPDATE mail_outbox SET next_attempt_at = now() WHERE sent_at IS NULL');
    expect(await t.deliverMail(mailer)).toBe(1);
    expect(await t.deliverMail(mailer)).toBe(0);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['outage@example.com']);
    const mail = smtp.received[0]!;
    expect(mail.subject).toBe('Activate your Kitshop account');
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.text).toMatch(/http:\/\/shop\.test\/email\/verify\?token=[\w-]+&email=outage%40example\.com/);
    expect(mail.html).toMatch(
      /href="http:\/\/shop\.test\/email\/verify\?token=[\w-]+&amp;email=outage%40example\.com"/,
    );
    mailer.close();
    await smtp.stop();
  });

  it('keeps only the recipient, subject and status of a sent mail: its token is nowhere in the row', async () => {
    await t.deliverMail();
    const browser = await createClient(t.app);
    await browser.post('/api/register', { name: 'Kept', email: 'kept@example.com', password: 'held-in-the-box-1' });
    await browser.post('/api/subscribe', { email: 'kept@example.com' });
    expect(await t.deliverMail()).toBe(2);
    const tokens = t.mails
      .filter((mail) => mail.to === 'kept@example.com')
      .map((mail) => /token=([\w-]+)/.exec(mail.text)![1]!);
    expect(tokens).toHaveLength(2); // the activation token and the (never expiring) unsubscribe token
    const { rows } = await t.pool.query(
      `SELECT row_to_json(m)::text AS row, subject, sent_at IS NOT NULL AS sent FROM mail_outbox m
       WHERE "to" = 'kept@example.com' ORDER BY id`,
    );
    expect(rows.map((r) => [r.subject, r.sent])).toEqual([
      ['Activate your Kitshop account', true],
      ['Welcome to the Kitshop newsletter', true],
    ]);
    for (const row of rows) for (const token of tokens) expect(row.row).not.toContain(token);
  });

  it("logs a mail's link only when mail goes to files, never when it goes out by SMTP", async () => {
    await t.deliverMail();
    const log = captureLog();
    const logger = createLogger({ logLevel: 'info' }, log.stream);
    const smtp = await startSmtpServer();
    const smtpMailer = createSmtpMailer(smtp.url, 'Kitshop <no-reply@kitshop.dev>');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-mail-'));
    try {
      const browser = await createClient(t.app);
      await browser.post('/api/register', {
        name: 'Smtp',
        email: 'by-smtp@example.com',
        password: 'goes-out-by-wire-1',
      });
      expect(await deliverDueMail(t.db, smtpMailer, logger)).toBe(1);
      const sent = /token=([\w-]+)/.exec(smtp.received[0]!.text)![1]!;
      expect(log.text()).not.toContain(sent);

      // The local file mailer does print it: the README promises a local sign-up can be completed.
      await browser.post('/api/register', {
        name: 'File',
        email: 'to-file@example.com',
        password: 'written-to-disk-1',
      });
      expect(await deliverDueMail(t.db, createFileMailer(dir, 'Kitshop <no-reply@kitshop.dev>'), logger)).toBe(1);
      expect(log.lines().map((line) => line.msg)).toContainEqual(
        expect.stringMatching(
          /^mail "Activate your Kitshop account" to to-file@example.com: http:\/\/shop\.test\/email\/verify\?token=/,
        ),
      );
    } finally {
      smtpMailer.close();
      await smtp.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('claims a mail in a committed statement before sending it: no transaction is open across the send', async () => {
    await t.deliverMail();
    await (await createClient(t.app)).post('/api/subscribe', { email: 'claimed@example.com' });
    const seen: unknown[] = [];
    const sent: string[] = [];
    const mailer = {
      close: () => {},
      async send(mail: { to: string }) {
        // Mid-send, as any other connection sees it: already claimed (counted, due only later) ...
        const { rows } = await t.pool.query(
          `SELECT attempts, sent_at IS NULL AS unsent, next_attempt_at > now() + interval '5 minutes' AS claimed
           FROM mail_outbox WHERE "to" = $1`,
          [mail.to],
        );
        seen.push(rows[0]);
        // ... no session of this database holds a transaction open meanwhile ...
        const open = await t.pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
        );
        seen.push(open.rows[0].n);
        // ... and another worker's round finds nothing to take.
        seen.push(
          await deliverDueMail(t.db, { send: async () => void sent.push('again'), close: () => {} }, silentLog),
        );
        sent.push(mail.to);
      },
    };
    expect(await deliverDueMail(t.db, mailer, silentLog)).toBe(1);
    expect(seen).toEqual([{ attempts: 1, unsent: true, claimed: true }, 0, 0]);
    expect(sent).toEqual(['claimed@example.com']);
    const { rows } = await t.pool.query(
      `SELECT attempts, sent_at IS NOT NULL AS sent FROM mail_outbox WHERE "to" = $1`,
      ['claimed@example.com'],
    );
    expect(rows).toEqual([{ attempts: 1, sent: true }]);
    expect(await t.deliverMail()).toBe(0);
  });

  it('backs off from 5 seconds up to 10 minutes', () => {
    expect([1, 2, 3, 4, 10, 20].map(retryDelaySeconds)).toEqual([5, 10, 20, 40, 600, 600]);
  });
});

describe('outbox worker', () => {
  it('starts a round 200 ms after the last nudge, and no later than 1 s after the first', async () => {
    vi.useFakeTimers();
    try {
      const start = Date.now();
      const rounds: number[] = [];
      // A database whose outbox is always empty: what is measured is when the worker looks.
      const db = {
        execute: async () => {
          rounds.push(Date.now() - start);
          return { rows: [] };
        },
      } as unknown as Database;
      const mailer = { send: async () => {}, close: () => {} };
      const worker = startOutboxWorker(db, mailer, { info: () => {}, warn: () => {} }, 60_000);

      worker.nudge();
      await vi.advanceTimersByTimeAsync(150);
      worker.nudge(); // more mail queued: wait for quiet again
      await vi.advanceTimersByTimeAsync(199);
      expect(rounds).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(rounds).toEqual([350]);

      // A steady stream of payments, one every 100 ms: mail still goes out within 1 s.
      for (let i = 0; i < 15; i++) {
        worker.nudge();
        await vi.advanceTimersByTimeAsync(100);
      }
      expect(rounds).toEqual([350, 1350]);
      await worker.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
