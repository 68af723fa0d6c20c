import { randomBytes } from 'node:crypto';
import { type BrowserContext, chromium, type Locator } from '@playwright/test';
import pg from 'pg';
import { CHROMIUM_ARGS } from '../../scripts/chromium.ts';
import { COOKIE_NAMES } from '../../src/server/http/cookies.ts';
import { hashSessionToken } from '../../src/server/http/session.ts';

/**
 * A user with a verified address and a session of an hour, written as sign-in writes them: their
 * id and the session cookie's value.
 */
export async function signedInUser(db: pg.Client, name: string, email: string): Promise<{ id: number; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const { rows } = await db.query(
    'INSERT INTO users (name, email, email_verified_at) VALUES ($1, $2, now()) RETURNING id',
    [name, email],
  );
  await db.query(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`, [
    hashSessionToken(token),
    rows[0].id,
  ]);
  return { id: rows[0].id, token };
}

/**
 * In a browser context signed in with this session, a cart of one product (a kit, or a licence
 * tier by its own id) taken to the sandbox checkout, the card filled: answers the frame's `Pay`
 * button, not yet pressed, and the page.
 */
export async function sandboxCheckout(context: BrowserContext, baseUrl: string, token: string, productId: number) {
  await context.addCookies([{ name: COOKIE_NAMES.session, value: token, url: baseUrl }]);
  const page = await context.newPage();
  await page.goto(`${baseUrl}/`);
  await page.evaluate(
    (id) => localStorage.setItem('cart', JSON.stringify({ count: 1, items: { [id]: id } })),
    productId,
  );
  await page.goto(`${baseUrl}/checkout`);
  await page.getByRole('button', { name: 'Make Payment' }).click();
  const frame = page.frameLocator('iframe[title="Payment"]');
  await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
  const pay: Locator = frame.getByRole('button', { name: 'Pay' });
  return { page, pay };
}

/**
 * A buyer with a kit in the cart opens the sandbox frame and presses Pay; measured from that click
 * until the kit is listed in the user panel's Purchases (success page, then the panel), in Chromium.
 */
export async function measurePayToPurchases(baseUrl: string, databaseUrl: string, chromePath: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let kit: { id: number; title: string };
  let buyer: { token: string };
  try {
    kit = (await db.query('SELECT id, title FROM kits WHERE active ORDER BY position LIMIT 1')).rows[0];
    buyer = await signedInUser(db, 'Bench Buyer', `pay-${process.pid}-${randomBytes(3).toString('hex')}@example.com`);
  } finally {
    await db.end();
  }
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
  try {
    const { page, pay } = await sandboxCheckout(await browser.newContext(), baseUrl, buyer.token, kit.id);
    const started = performance.now();
    await pay.click();
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
