import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { SHOP_URL } from '../../playwright.config.ts';
import { test } from './fixtures.ts';

/**
 * The public screens arrive complete in the first response. Each is fetched once as plain
 * HTML (what a crawler or a link preview reads), and opened in Chromium with JavaScript disabled
 * (what a visitor without scripts sees), where its content shows and its links lead somewhere.
 */

type Kit = { id: number; sef_id: string; title: string; spot: string; features: string[]; price: number };
type Product = Kit & {
  documentation: boolean;
  discounted_from: number | null;
  details: {
    faq: { question: string; answer: string }[];
    included: string[];
    screenshots: { url: string; alt: string }[];
  };
};

/** Text as the page shows it: tags dropped, entities read, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ');
}

/** #root's HTML: what the server rendered for the screen (the head and JSON blocks left out). */
async function rootOf(request: APIRequestContext, url: string, status = 200): Promise<string> {
  const response = await request.get(url, { headers: { accept: 'text/html' } });
  expect(response.status(), url).toBe(status);
  const html = await response.text();
  const start = html.indexOf('<div id="root">');
  const end = html.indexOf('<script type="application/json"', start);
  expect(start, `${url}: #root`).toBeGreaterThan(0);
  return html.slice(start, end);
}

const usd = (dollars: number) => `$${Number.isInteger(dollars) ? dollars : dollars.toFixed(2)}`;

test.describe('public screens rendered by the server', () => {
  let kits: Kit[];
  let product: Product;

  test.beforeAll(async ({ request }) => {
    kits = await (await request.post('api/products')).json();
    const withDocs = await Promise.all(
      kits.map(async (kit) => (await request.post(`api/product/${kit.sef_id}`)).json() as Promise<Product>),
    );
    product = withDocs.find((k) => k.documentation && k.details.faq.length > 0 && k.details.screenshots.length > 0)!;
  });

  test('each public route answers its content in the HTML, without a browser', async ({ request }) => {
    const home = textOf(await rootOf(request, '/'));
    for (const kit of kits) {
      expect(home).toContain(kit.title);
      expect(home).toContain(textOf(kit.spot));
    }
    expect(home).toContain('Skip the boilerplate. Ship the product.');

    const productRoot = await rootOf(request, `/product/${product.sef_id}`);
    const productText = textOf(productRoot);
    expect(productText).toContain(product.title);
    expect(productText).toContain(textOf(product.spot));
    expect(productText).toContain(usd(product.price));
    for (const feature of product.details.included.slice(0, 8)) expect(productText).toContain(textOf(feature));
    for (const { question } of product.details.faq) expect(productText).toContain(textOf(question));
    expect(productText).toContain("What's Included");
    for (const shot of product.details.screenshots) expect(productRoot).toContain(textOf(shot.alt));
    expect(productText).toContain('Buy Now');

    const docs = await (await request.get(`api/docs/${product.sef_id}`)).json();
    const docsText = textOf(await rootOf(request, `/docs/${product.sef_id}`));
    expect(docsText).toContain(docs.pages[0].title);

    const pages: [string, string][] = [
      ['/about', 'About Kitshop'],
      ['/contact', 'Contact us'],
      ['/support', 'Support'],
      ['/privacy-policy', 'Privacy Policy'],
      ['/terms-and-conditions', 'Terms and Conditions'],
      ['/refund-policy', 'Refund Policy'],
      ['/cookie-policy', 'Cookie Policy'],
      ['/licence', 'Licence Agreement'],
      ['/cart', 'Your Cart'],
      ['/login', 'Sign in'],
      ['/register', 'Create your account'],
      ['/blog', 'Blog'],
    ];
    for (const [path, heading] of pages) expect(textOf(await rootOf(request, path)), path).toContain(heading);
    // Shared links show a picture: a page without one of its own names the shop's, which is served.
    const about = await (await request.get('about')).text();
    const share = /<meta property="og:image" content="([^"]+)">/.exec(about)?.[1];
    expect(share).toMatch(/\/share\.jpg$/);
    const image = await request.get(share!);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/jpeg');
    expect(textOf(await rootOf(request, '/refund-policy'))).toContain('14 days');
    expect(textOf(await rootOf(request, '/no-such-page', 404))).toContain('Page not found');
    expect(textOf(await rootOf(request, '/product/no-such-kit', 404))).toContain('Page not found');
  });

  test('under a base path, the rendered links carry it', async ({ request }) => {
    const root = await rootOf(request, `${SHOP_URL}/`);
    expect(root).toContain(`href="/shop/product/${kits[0]!.sef_id}"`);
    expect(root).not.toMatch(/href="\/product\//);
  });

  test('a server-rendered page is shared by every visitor: only the initial data differs @stack', async ({
    playwright,
  }) => {
    const first = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
    const second = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
    const [a, b] = await Promise.all([
      first.get(`product/${kits[0]!.sef_id}`),
      second.get(`product/${kits[0]!.sef_id}`),
    ]);
    const [htmlA, htmlB] = await Promise.all([a.text(), b.text()]);
    const withoutData = (html: string) =>
      html.replace(/<script type="application\/json" id="initial-data">.*?<\/script>/, '');
    expect(withoutData(htmlA)).toBe(withoutData(htmlB));
    expect(htmlA).not.toBe(htmlB); // each visitor's own CSRF token
    await Promise.all([first.dispose(), second.dispose()]);
  });

  test('a visitor who scrolls before the script has run stays there when the page comes alive', async ({ page }) => {
    // The shop's script waits until the visitor has scrolled the rendered page, as on a slow phone.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/[^?]+\.js(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    // Neither `load` nor `DOMContentLoaded` comes before the module scripts have run.
    await page.goto(`/product/${product.sef_id}`, { waitUntil: 'commit' });
    const addToCart = page.locator('.hero-buy');
    await expect(addToCart).toBeInViewport();
    await page.evaluate(() => window.scrollTo({ top: 900, behavior: 'instant' }));
    await expect(addToCart).not.toBeInViewport();
    release();
    // The layout's route effects have run (they set the page-type flag; the server does not).
    await expect(page.locator('body[data-page-type="product"]')).toBeAttached();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.evaluate(() => window.scrollY)).toBe(900);
    await expect(addToCart).not.toBeInViewport();
    // A move to another screen still starts at its top.
    await page.getByRole('link', { name: 'Documentation' }).first().click();
    await expect(page).toHaveURL(new RegExp(`/docs/${product.sef_id}$`));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  async function expectLinksLead(page: Page, names: string[]) {
    for (const name of names) {
      const href = await page.getByRole('link', { name, exact: true }).first().getAttribute('href');
      expect(href, name).toBeTruthy();
      const response = await page.request.get(new URL(href!, page.url()).href);
      expect(response.status(), `${name} → ${href}`).toBe(200);
    }
  }

  test('every public screen shows its content and its links work @phone', async ({ page, request }) => {
    const kits: Kit[] = await (await request.post('api/products')).json();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Skip the boilerplate. Ship the product.');
    for (const kit of kits) await expect(page.getByRole('heading', { name: kit.title, exact: true })).toBeVisible();
    await expectLinksLead(page, ['About', 'Contact', 'Privacy Policy', 'Terms and Conditions', 'Refund Policy']);
    if (test.info().project.name === 'desktop') {
      // A link drawn as a button (Bootstrap would block it in the page's disabled frame) still leads.
      await page.getByRole('link', { name: 'Sign up', exact: true }).click();
      await expect(page).toHaveURL(/\/register$/);
      await page.goto('/');
    }

    // A kit's Details link is a plain link: it opens the product page, complete.
    const kit = kits[0]!;
    await page.locator(`#kits a[href$="/product/${kit.sef_id}"]`).first().click();
    await expect(page).toHaveURL(new RegExp(`/product/${kit.sef_id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(kit.title);
    await expect(page.getByRole('heading', { name: "What's Included" })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Buy Now' })).toBeVisible();

    for (const [path, heading] of [
      ['/about', 'About Kitshop'],
      ['/contact', 'Contact us'],
      ['/privacy-policy', 'Privacy Policy'],
      ['/terms-and-conditions', 'Terms and Conditions'],
      ['/refund-policy', 'Refund Policy'],
      ['/cookie-policy', 'Cookie Policy'],
      ['/licence', 'Licence Agreement'],
      ['/login', 'Sign in'],
      ['/register', 'Create your account'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }), path).toContainText(heading);
    }

    // The cart and the forms say what they need.
    await page.goto('/cart');
    await expect(page.getByRole('heading', { name: 'Your Cart' })).toBeVisible();
    await expect(page.locator('.noscript-note')).toContainText('need JavaScript'); // inside <noscript>, which getByText skips
    await page.goto('/login');
    await expect(page.locator('.noscript-note')).toContainText('need JavaScript'); // inside <noscript>, which getByText skips
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeDisabled();

    await page.goto('/blog');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const post = page.locator('main a[href*="/blog/"]:not([href$=".xml"])').first();
    await post.click();
    await expect(page.locator('main article h1')).toBeVisible();
  });
});
