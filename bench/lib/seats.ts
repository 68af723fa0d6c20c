import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { CHROMIUM_ARGS } from '../../scripts/chromium.ts';
import { COOKIE_NAMES } from '../../src/server/http/cookies.ts';
import { sandboxCheckout, signedInUser } from './pay-flow.ts';
import { visit } from './signin.ts';

export const SEAT_RUNS = 20;

/** One buyer's Team purchase to their colleague's access, each part in milliseconds. */
export type SeatRun = {
  /** From pressing `Pay` in the sandbox frame until the buyer's entitlement of the kit exists. */
  payMs: number;
  /** The buyer's `Invite` call, until it answered. */
  inviteMs: number;
  /** From the member's `Accept` call until Purchases lists the kit and its download answered 200 in full. */
  acceptMs: number;
  /** From `Pay` to the member's download: the three above, the wait for the mail's row between. */
  wholeMs: number;
};

/**
 * A Team purchase to a member's access, one buyer at a time: the buyer presses `Pay` in the sandbox
 * checkout (Chromium, as the `pay` step) and the clock runs until the entitlement row exists; the
 * buyer invites a colleague (the item page's call); the colleague's link is read from the mail
 * outbox and the colleague, signed in with that address, accepts (the invitation page's call); then
 * the colleague's Purchases must list the kit and the kit's download answer 200 and its bytes.
 */
export async function measureTeamSeats(baseUrl: string, databaseUrl: string, chromePath: string): Promise<SeatRun[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
  try {
    const { rows: tiers } = await db.query<{ tier_id: number; kit_id: number; sef_id: string }>(
      `SELECT l.id AS tier_id, k.id AS kit_id, k.sef_id FROM kit_licences l JOIN kits k ON k.id = l.kit_id
        WHERE l.active AND k.active AND l.seats > 1 ORDER BY k.position, l.position LIMIT 1`,
    );
    const tier = tiers[0];
    if (!tier) throw new Error('no kit of the catalog has a Team tier');
    // The CSRF cookie and token of a first visit: bound to their own cookie, not to a session.
    const shell = await visit(baseUrl);
    const call = async (path: string, token: string, body: unknown, method = 'POST') =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          cookie: `${shell.cookie}; ${COOKIE_NAMES.session}=${token}`,
          ...(method === 'POST' ? { 'content-type': 'application/json', 'x-csrf-token': shell.csrf } : {}),
        },
        ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
      });
    const runs: SeatRun[] = [];
    for (let i = 0; i < SEAT_RUNS; i++) {
      const tag = `${process.pid}-${i}-${randomBytes(3).toString('hex')}`;
      const buyer = await signedInUser(db, 'Team Buyer', `team-${tag}@example.com`);
      const memberEmail = `member-${tag}@example.com`;
      const member = await signedInUser(db, 'Team Member', memberEmail);
      const context = await browser.newContext();
      try {
        const { pay } = await sandboxCheckout(context, baseUrl, buyer.token, tier.tier_id);
        const started = performance.now();
        await pay.click();
        while (
          (
            await db.query('SELECT 1 FROM entitlements WHERE user_id = $1 AND kit_id = $2 AND revoked_at IS NULL', [
              buyer.id,
              tier.kit_id,
            ])
          ).rowCount === 0
        ) {
          if (performance.now() - started > 15_000) throw new Error('no entitlement within 15 s of Pay');
          await new Promise((r) => setTimeout(r, 5));
        }
        const paid = performance.now();

        const invite = await call(`/api/seats/${tier.sef_id}/invite`, buyer.token, { email: memberEmail });
        if (invite.status !== 200) throw new Error(`Invite answered ${invite.status}: ${await invite.text()}`);
        await invite.arrayBuffer();
        const invited = performance.now();
        const { rows: mails } = await db.query<{ text: string }>(
          `SELECT text FROM mail_outbox WHERE "to" = $1 AND subject LIKE '%invited you%' ORDER BY id DESC LIMIT 1`,
          [memberEmail],
        );
        const link = /\/seat-invitation\/([A-Za-z0-9_-]+)/.exec(mails[0]?.text ?? '')?.[1];
        if (!link) throw new Error('the invitation mail has no link');

        const accepting = performance.now();
        const accept = await call(`/api/seat-invitations/${link}/accept`, member.token, {});
        if (accept.status !== 200) throw new Error(`Accept answered ${accept.status}: ${await accept.text()}`);
        await accept.arrayBuffer();
        const purchases = await call('/api/purchases', member.token, {});
        const items = ((await purchases.json()) as { items?: { id: number }[] }).items ?? [];
        if (!items.some((item) => item.id === tier.kit_id)) throw new Error("the member's Purchases lack the kit");
        const download = await call(`/download/${tier.kit_id}`, member.token, null, 'GET');
        if (download.status !== 200) throw new Error(`the member's download answered ${download.status}`);
        const bytes = (await download.arrayBuffer()).byteLength;
        if (bytes === 0) throw new Error("the member's download was empty");
        const done = performance.now();
        runs.push({
          payMs: paid - started,
          inviteMs: invited - paid,
          acceptMs: done - accepting,
          wholeMs: done - started,
        });
      } finally {
        await context.close();
      }
    }
    return runs;
  } finally {
    await browser.close();
    await db.end();
  }
}
