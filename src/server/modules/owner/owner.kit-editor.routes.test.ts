import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient, signedInClient } from '../../../../tests/setup/client.ts';
import {
  createTestApp,
  DEMO_CATALOG,
  FIXTURE_CATALOG,
  type TestApp,
  webRenderer,
} from '../../../../tests/setup/test-app.ts';
import type { EditableKit } from '../../../common/schemas/kit-editor.ts';
import { createCatalog, listenForCatalogChanges } from '../catalog/catalog.service.ts';

let t: TestApp;
let owner: Client;
let customer: Client;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://shop.test', OWNER_EMAILS: 'boss@shop.test' }, { render: webRenderer });
  ({ client: owner } = await signedInClient(t.app, t.pool, { email: 'boss@shop.test', name: 'The Boss' }));
  ({ client: customer } = await signedInClient(t.app, t.pool));
});
afterAll(() => t.close());

const cookie = (client: Client) => [...client.jar].map(([k, v]) => `${k}=${v}`).join('; ');

const put = (client: Client, url: string, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url,
    headers: { cookie: cookie(client), 'x-csrf-token': client.csrf, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

/** A multipart upload of one file, as the browser's FormData sends it. */
function upload(client: Client, url: string, file: { name: string; type: string; bytes: Buffer }) {
  const boundary = '----kitshop-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      cookie: cookie(client),
      'x-csrf-token': client.csrf,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
}

const PNG = readFileSync(path.join(FIXTURE_CATALOG, 'kits/alpha-kit/screenshots/dashboard.png'));

const editable = async (sefId = 'alpha-kit') => {
  const res = await owner.get(`/api/admin/kits/${sefId}`);
  expect(res.statusCode).toBe(200);
  return res.json() as EditableKit;
};

const activityCount = async () => Number((await t.pool.query('SELECT count(*) FROM owner_activity')).rows[0].count);

describe('GET /api/admin/kits/:sefId', () => {
  it('answers the kit as the form edits it, Markdown sources included', async () => {
    const kit = await editable();
    expect(kit).toMatchObject({
      sef_id: 'alpha-kit',
      title: 'Alpha Kit',
      price: 49,
      discounted_from: 79,
      paddle_price_id: 'pri_01alphaalphaalpha0001',
      hidden: false,
      in_content: true,
      console_changed_at: null,
    });
    expect(kit.setup_markdown).toContain('## Quick Start');
    expect(kit.docs.map((d) => d.slug)).toEqual(['introduction', 'deploy']);
    expect(kit.details.screenshots[0]!.url).toMatch(/^media\/screenshots\/alpha-kit\/[0-9a-f]{16}-dashboard\.png$/);
  });

  it('answers 401 signed out and 419 without the CSRF token', async () => {
    const anonymous = await createClient(t.app);
    expect((await anonymous.get('/api/admin/kits/alpha-kit')).statusCode).toBe(401);
    const noToken = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/kits/alpha-kit',
      headers: { cookie: cookie(owner), 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(noToken.statusCode).toBe(419);
  });

  it('is for owners only, and 404 for an unknown kit', async () => {
    expect((await customer.get('/api/admin/kits/alpha-kit')).statusCode).toBe(403);
    expect((await put(customer, '/api/admin/kits/alpha-kit', {})).statusCode).toBe(403);
    expect((await owner.get('/api/admin/kits/no-such-kit')).statusCode).toBe(404);
    expect((await owner.get('/api/admin/kits/..%2Fetc')).statusCode).toBe(404);
  });
});

describe('PUT /api/admin/kits/:sefId', () => {
  it('refuses bad input with a message per field and changes nothing', async () => {
    const before = await editable();
    const activity = await activityCount();
    const bad = {
      ...before,
      title: ' ',
      price: -5,
      discounted_from: 1,
      details: { ...before.details, faq: [{ question: 'Only a question?', answer: '' }] },
      setup_markdown: '# Setup\n\nNo sections.',
    };
    const res = await put(owner, '/api/admin/kits/alpha-kit', bad);
    expect(res.statusCode).toBe(422);
    expect(res.json().fields).toMatchObject({
      title: 'Required.',
      price: 'Must be above 0.',
      'details.faq.0.answer': 'Required.',
      setup_markdown: 'Needs a "## Quick Start" and a "## How to Modify" section.',
    });
    expect(res.json().message).toBeTruthy();
    expect(await editable()).toEqual(before);
    expect(await activityCount()).toBe(activity);
  });

  it('refuses what only the server knows (another kit’s price id, another kit’s screenshot, a wrong unzip line), all or nothing', async () => {
    const before = await editable();
    const res = await put(owner, '/api/admin/kits/alpha-kit', {
      ...before,
      title: 'Renamed but not saved',
      paddle_price_id: (await editable('beta-kit')).paddle_price_id,
      details: {
        ...before.details,
        screenshots: [{ ...before.details.screenshots[0]!, url: 'media/screenshots/beta-kit/0123456789abcdef-x.png' }],
      },
      setup_markdown: `${before.setup_markdown}\n\nunzip alpha-kit-9.9.9.zip && cd alpha-kit-9.9.9\n`,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().fields).sort()).toEqual([
      'details.screenshots.0.url',
      'paddle_price_id',
      'setup_markdown',
    ]);
    expect((await editable()).title).toBe('Alpha Kit');
  });

  it('saves price and FAQ: the product API and the rendered product page show them at once, and the log names the owner', async () => {
    // Read (and so cache) the catalog and the page first: the save must drop both.
    expect((await owner.post('/api/product/alpha-kit')).json().price).toBe(49);
    expect((await customer.page('/product/alpha-kit')).res.body).not.toContain('Does it ship with tests?');
    const before = await editable();
    const res = await put(owner, '/api/admin/kits/alpha-kit', {
      ...before,
      price: 59,
      details: {
        ...before.details,
        faq: [...before.details.faq, { question: 'Does it ship with tests?', answer: 'Yes, <b>many</b>.' }],
        heading: { ...before.details.heading, text: '<p onclick="x()">Hello<script>alert(1)</script></p>' },
      },
      docs: [...before.docs, { slug: 'faq-page', markdown: '# More\n\n<script>alert(1)</script>Text' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ price: 59 });
    expect(res.json().console_changed_at).not.toBeNull();

    const product = (await customer.post('/api/product/alpha-kit')).json();
    expect(product.price).toBe(59);
    expect(product.details.faq.at(-1)).toEqual({ question: 'Does it ship with tests?', answer: 'Yes, <b>many</b>.' });
    expect(product.details.heading.text).toBe('<p>Hello</p>');
    const docs = (await customer.get('/api/docs/alpha-kit')).json();
    expect(docs.pages.at(-1)).toMatchObject({ slug: 'faq-page', title: 'More' });
    expect(docs.pages.at(-1).html).not.toContain('<script');
    const page = (await customer.page('/product/alpha-kit')).res.body;
    expect(page).toContain('Does it ship with tests?');
    expect(page).toContain('59');

    const log = (await owner.get('/api/admin/activity?limit=1')).json().items[0];
    expect(log).toMatchObject({ actor: 'boss@shop.test', action: 'edit kit' });
    expect(log.detail).toBe('Alpha Kit: price $49 -> $59, heading, FAQ, documentation');
  });

  it('drops the catalog of another instance too, at commit (NOTIFY)', async () => {
    const other = createCatalog(t.db);
    let connected = false;
    const listener = listenForCatalogChanges(
      () => t.pool.connect(),
      () => {
        connected = true;
        other.invalidate();
      },
      { warn: () => {} },
    );
    try {
      await expect.poll(() => connected, { timeout: 10_000 }).toBe(true);
      const before = await editable();
      expect((await other.entry('alpha-kit'))!.product.spot).toBe(before.spot);
      expect((await put(owner, '/api/admin/kits/alpha-kit', { ...before, spot: 'Seen everywhere.' })).statusCode).toBe(
        200,
      );
      await expect
        .poll(async () => (await other.entry('alpha-kit'))!.product.spot, { timeout: 10_000 })
        .toBe('Seen everywhere.');
    } finally {
      await listener.close();
    }
  });

  it('hides a kit from the store and shows it again', async () => {
    const before = await editable();
    expect((await put(owner, '/api/admin/kits/alpha-kit', { ...before, hidden: true })).statusCode).toBe(200);
    expect((await customer.post('/api/product/alpha-kit')).statusCode).toBe(404);
    // A save from the form opened before the first one is refused rather than undoing it.
    const stale = await put(owner, '/api/admin/kits/alpha-kit', { ...before, title: 'Stale' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/changed since you opened it/);
    expect((await put(owner, '/api/admin/kits/alpha-kit', { ...(await editable()), hidden: false })).statusCode).toBe(
      200,
    );
    expect((await customer.post('/api/product/alpha-kit')).statusCode).toBe(200);
  });
});

describe('screenshots', () => {
  it('stores a PNG under a content-addressed key and serves it', async () => {
    const res = await upload(owner, '/api/admin/kits/alpha-kit/screenshots', {
      name: 'Screen Shot.png',
      type: 'image/png',
      bytes: PNG,
    });
    expect(res.statusCode).toBe(200);
    const { url } = res.json();
    expect(url).toMatch(/^media\/screenshots\/alpha-kit\/([0-9a-f]{16})-shot-\1\.png$/);
    const again = await upload(owner, '/api/admin/kits/alpha-kit/screenshots', {
      name: 'other.png',
      type: 'image/png',
      bytes: PNG,
    });
    expect(again.json().url).toBe(url);
    const media = await customer.get(`/${url}`);
    expect(media.statusCode).toBe(200);
    expect(media.rawPayload.equals(PNG)).toBe(true);
  });

  it('refuses what is not an image by its bytes, whatever its name and type say', async () => {
    const res = await upload(owner, '/api/admin/kits/alpha-kit/screenshots', {
      name: 'evil.png',
      type: 'image/png',
      bytes: Buffer.from('<svg onload="alert(1)"></svg>'),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('file: Upload a PNG, JPEG or WebP image.');
  });

  it('refuses an image over 5 MB', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await upload(owner, '/api/admin/kits/alpha-kit/screenshots', {
      name: 'big.png',
      type: 'image/png',
      bytes: big,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('file: The image is larger than 5 MB.');
  });

  it('refuses a request that is not multipart', async () => {
    const res = await owner.post('/api/admin/kits/alpha-kit/screenshots', { file: 'x' });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /api/admin/kits (New Kit)', () => {
  it('creates a hidden kit that the editor then completes and shows', async () => {
    const res = await owner.post('/api/admin/kits', {
      sef_id: 'gamma-kit',
      title: 'Gamma Kit',
      spot: 'The third kit.',
      price: 29,
      paddle_price_id: 'pri_01gammagammagamma0001',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ sef_id: 'gamma-kit', hidden: true, price: 29 });
    expect((await customer.post('/api/product/gamma-kit')).statusCode).toBe(404);
    expect((await owner.get('/api/admin/activity?limit=1')).json().items[0]).toMatchObject({ action: 'create kit' });

    const draft = await editable('gamma-kit');
    // Not from the Kits list either, while its page is empty.
    const shown = await owner.post(`/api/admin/kits/${draft.id}`, { active: true });
    expect(shown.statusCode).toBe(409);
    expect(shown.json().message).toBe('Gamma Kit is not complete yet: finish its page in the kit editor and save it.');
    const incomplete = await put(owner, '/api/admin/kits/gamma-kit', { ...draft, hidden: false });
    expect(incomplete.statusCode).toBe(422);
    expect(incomplete.json().fields).toMatchObject({ features: 'Add at least 3 features.' });

    const shot = (
      await upload(owner, '/api/admin/kits/gamma-kit/screenshots', { name: 'a.png', type: 'image/png', bytes: PNG })
    ).json();
    const alpha = await editable();
    const complete = await put(owner, '/api/admin/kits/gamma-kit', {
      ...draft,
      features: ['One', 'Two', 'Three'],
      details: {
        ...alpha.details,
        screenshots: [{ ...shot, alt: 'The dashboard', title: '' }],
      },
      setup_markdown: '# Setup\n\n## Quick Start\n\nRun it.\n\n## How to Modify\n\nEdit it.\n',
      hidden: false,
    });
    expect(complete.statusCode).toBe(200);
    const product = (await customer.post('/api/product/gamma-kit')).json();
    expect(product).toMatchObject({ title: 'Gamma Kit', price: 29 });
    expect(product.details.screenshots[0]).toMatchObject({ alt: 'The dashboard', title: 'The dashboard' });
  });

  it('refuses a taken address or price id, and bad fields, with field messages', async () => {
    const res = await owner.post('/api/admin/kits', {
      sef_id: 'alpha-kit',
      title: 'Copy',
      spot: 'x',
      price: 10,
      paddle_price_id: 'pri_01alphaalphaalpha0001',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().fields).toEqual({
      sef_id: 'Another kit has this address.',
      paddle_price_id: 'Already the price of alpha-kit.',
    });
    const bad = await owner.post('/api/admin/kits', { sef_id: 'Bad Slug', title: '', price: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['paddle_price_id', 'price', 'sef_id', 'spot', 'title']);
  });
});

describe('POST /api/admin/markdown-preview', () => {
  it('renders and sanitises as the import does', async () => {
    const res = await owner.post('/api/admin/markdown-preview', {
      markdown: '## Quick Start\n\n<img src=x onerror=alert(1)>',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().html).toContain('<h2 id="quick-start">Quick Start</h2>');
    expect(res.json().html).not.toContain('onerror');
  });
});

describe('with Paddle', () => {
  it('asks for a new Paddle price id when the price changes, since Paddle charges its own price', async () => {
    const paddle = await createTestApp({
      OWNER_EMAILS: 'boss@shop.test',
      PAYMENT_PROVIDER: 'paddle',
      PADDLE_CLIENT_TOKEN: 'test_client_token',
      PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_test_secret',
      PADDLE_API_KEY: 'pdl_sdbx_apikey_test',
    });
    try {
      const { client } = await signedInClient(paddle.app, paddle.pool, { email: 'boss@shop.test' });
      const kit = (await client.get('/api/admin/kits/beta-kit')).json() as EditableKit;
      expect(kit.paddle).toBe(true);
      const send = (body: unknown) =>
        paddle.app.inject({
          method: 'PUT',
          url: '/api/admin/kits/beta-kit',
          headers: { cookie: cookie(client), 'x-csrf-token': client.csrf, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      const same = await send({ ...kit, price: kit.price + 10 });
      expect(same.statusCode).toBe(422);
      expect(same.json().fields.paddle_price_id).toMatch(/new price needs its own Paddle price/);
      const renewed = await send({ ...kit, price: kit.price + 10, paddle_price_id: 'pri_01betanewprice000001' });
      expect(renewed.statusCode).toBe(200);
      expect((await client.post('/api/cart', { products: [kit.id] })).json().items[0]).toMatchObject({
        price: kit.price + 10,
        paddle_id: 'pri_01betanewprice000001',
      });
    } finally {
      await paddle.close();
    }
  });
});

describe('the demo catalog', () => {
  it('every kit the shop ships opens in the editor and saves back unchanged', async () => {
    const demo = await createTestApp({ OWNER_EMAILS: 'boss@shop.test' }, { catalogDir: DEMO_CATALOG });
    try {
      const { client } = await signedInClient(demo.app, demo.pool, { email: 'boss@shop.test' });
      const sefIds = (await demo.pool.query<{ sef_id: string }>('SELECT sef_id FROM kits ORDER BY id')).rows;
      expect(sefIds.length).toBeGreaterThan(3);
      for (const { sef_id } of sefIds) {
        const kit = (await client.get(`/api/admin/kits/${sef_id}`)).json() as EditableKit;
        const before = (await client.post(`/api/product/${sef_id}`)).json();
        const saved = await demo.app.inject({
          method: 'PUT',
          url: `/api/admin/kits/${sef_id}`,
          headers: { cookie: cookie(client), 'x-csrf-token': client.csrf, 'content-type': 'application/json' },
          payload: JSON.stringify(kit),
        });
        expect(saved.json(), sef_id).not.toHaveProperty('fields');
        expect(saved.statusCode).toBe(200);
        expect((await client.post(`/api/product/${sef_id}`)).json()).toEqual(before);
      }
    } finally {
      await demo.close();
    }
  });
});
