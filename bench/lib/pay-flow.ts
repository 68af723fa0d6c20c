import { randomBytes } from 'node:crypto';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { CHROMIUM_ARGS } from '../../scripts/chromium.ts';
import { COOKIE_NAMES } from '../../src/server/http/cookies.ts';
import { hashSessionToken } from '../../src/server/http/session.ts';

/**
 * A buyer with a kit in the cart opens the sandbox frame and presses Pay; measured from that click
 * until the kit is listed in the user panel's Purchases (success page, then the panel), in Chromium.
 */
export async function measurePayToPurchases(baseUrl: string, databaseUrl: string, chromePath: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const token = randomBytes(32).toString('base64url');
  let kit: { id: number; title: string };
  try {
    kit = (await db.query('SELECT id, title FROM kits WHERE active ORDER BY position LIMIT 1')).rows[0];
    const { rows } = await db.query(
      `INSERT INTO users (name, email, email_verified_at) VALUES ('Bench Buyer', $1, now()) RETURNING id`,
      [`pay-${process.pid}-${randomBytes(3).toString('hex')}@example.com`],
    );
    await db.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
      [hashSessionToken(token), rows[0].id],
    );
  } finally {
    await db.end();
  }
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: COOKIE_NAMES.session, value: token, url: baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await page.evaluate(
      (id) => localStorage.setItem('cart', JSON.stringify({ count: 1, items: { [id]: id } })),
      kit.id,
    );
    await page.goto(`${baseUrl}/checkout`);
    await page.getByRole('button', { name: 'Make Payment' }).click();
    const frame = page.frameLocator('iframe[title="Payment"]');
    await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
    const started = performance.now();
    await frame.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/status=success/);
    await page
      .getByRole('link', { name: 'Go to User Panel' })
      .or(page.getByRole('button', { name: 'Go to User Panel' }))
      .click();
    await page.getByRole('listitem').filter({ hasText: kit.title }).waitFor();
    return Math.round(performance.now() - started);
  } finally {
    await browser.close();
  }
}
