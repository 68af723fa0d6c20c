import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import type pg from 'pg';
import { createAccount, expect } from './fixtures.ts';

/** What the owner console's specs (kit editor, versions) share: the owner, the editor's lists, images. */

/** A new owner of the shop whose database this is (signed in afterwards through the form). */
export async function ownerAccount(db: pg.Pool, name = 'Vera Versions') {
  const owner = await createAccount(db, { name });
  await db.query('INSERT INTO owners (email) VALUES (lower($1)) ON CONFLICT DO NOTHING', [owner.email]);
  return owner;
}

/** Adds a row to one of the kit editor's lists with its button, and fills the row's fields by their labels. */
export async function addRow(page: Page, button: string, fields: Record<string, string>) {
  await page.getByRole('button', { name: button, exact: true }).click();
  for (const [label, value] of Object.entries(fields)) {
    const field = page.getByLabel(label, { exact: true });
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
}

/** The page's CSRF token (its initial data), for a call the page itself would make. */
export async function csrfOf(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(document.getElementById('initial-data')!.textContent!).csrf);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/**
 * A PNG of random pixels (RGB, 8 bits): as large as its pixels, since noise does not compress, so
 * a size can be chosen (1000 x 800 is about 2.4 MB). Every call makes a different image.
 */
export function noisePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, the standard filters, not interlaced
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const start = y * (width * 3 + 1);
    rows[start] = 0; // each row unfiltered
    randomBytes(width * 3).copy(rows, start + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Fails unless the image has loaded and decoded (a broken one has no natural width). */
export async function expectImageLoaded(image: import('@playwright/test').Locator) {
  await image.scrollIntoViewIfNeeded();
  await expect(image).toHaveJSProperty('complete', true);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
}

/**
 * A kit made through the console's API by the signed-in owner on `page` (New Kit, a screenshot
 * upload, then Save with every part of its page), shown in the store. It is placed among the demo
 * kits, not last: admin.spec hides the store's last kit while it runs.
 */
export async function createShownKit(
  page: Page,
  kit: { sefId: string; title: string; price: number; githubRepository?: string },
) {
  const headers = { 'x-csrf-token': await csrfOf(page) };
  const created = await page.request.post('api/admin/kits', {
    headers,
    data: {
      sef_id: kit.sefId,
      title: kit.title,
      spot: 'A kit an owner changes in the browser.',
      price: kit.price,
      paddle_price_id: `pri_01e2e${randomBytes(6).toString('hex')}`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const shot = await page.request.post(`api/admin/kits/${kit.sefId}/screenshots`, {
    headers,
    multipart: { file: { name: 'first.png', mimeType: 'image/png', buffer: noisePng(16, 10) } },
  });
  expect(shot.status(), await shot.text()).toBe(200);
  const { paddle_price_id, updated_at } = await created.json();
  const saved = await page.request.put(`api/admin/kits/${kit.sefId}`, {
    headers,
    data: {
      title: kit.title,
      spot: 'A kit an owner changes in the browser.',
      price: kit.price,
      discounted_from: null,
      position: 5,
      paddle_price_id,
      features: ['Typed end to end', 'Tested', 'Documented'],
      details: {
        demo: { url: 'https://demo.example.com' },
        headerCards: [{ icon: 'rocket', title: 'Fast', text: 'Starts fast.' }],
        video: null,
        heading: { title: 'Everything you need', lead: 'A lead.', features: ['Typed'], text: '<p>Text.</p>' },
        screenshotsTitle: 'See it',
        screenshots: [{ ...(await shot.json()), alt: 'The first screen', title: '' }],
        included: ['Source code'],
        why: [{ icon: 'check', text: 'It works.' }],
        faq: [{ question: 'Is it tested?', answer: 'Yes.' }],
      },
      setup_markdown: '# Setup\n\n## Quick Start\n\nRun `npm ci`.\n\n## How to Modify\n\nEdit `src/`.\n',
      docs: [],
      github_repository: kit.githubRepository ?? null,
      hidden: false,
      updated_at,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
}
