import { describe, expect, it } from 'vitest';
import { PAGE_QUERY_KEYS } from '../../../common/page-data.ts';
import { catalogScreenHeads } from './catalog.screens.ts';
import type { Catalog, CatalogEntry } from './catalog.service.ts';

const shot = { url: 'media/a/1.png', thumbnail_url: 'media/a/1-thumb.png', alt: 'The dashboard', title: 'Dashboard' };
const product = {
  sef_id: 'alpha-kit',
  title: 'Alpha Kit',
  spot: 'The alpha spot.',
  price: 49,
  details: { screenshots: [shot] },
};
const docs = { sef_id: 'alpha-kit', title: 'Alpha Kit', pages: [{ slug: 'deploy' }] };
/** Just the fields the heads read: a kit, its product answer and its docs. */
const entry = {
  kit: { docs: [{ slug: 'deploy' }] },
  product,
  docsJson: JSON.stringify(docs),
} as unknown as CatalogEntry;
const catalog = {
  snapshot: async () => ({ list: [product] }),
  entry: async (sefId: string) => (sefId === 'alpha-kit' ? entry : undefined),
} as unknown as Pick<Catalog, 'snapshot' | 'entry'>;
const heads = catalogScreenHeads(catalog, { publicUrl: 'https://shop.test/shop', basePath: '/shop' });

describe('the catalog screens’ heads', () => {
  it('gives a product page its canonical URL, sharing image, JSON-LD offer and hero preload', async () => {
    const { head, queries } = await heads.product({ params: { sefId: 'alpha-kit' }, path: '/product/alpha-kit' });
    expect(head).toMatchObject({
      title: 'Alpha Kit',
      description: 'The alpha spot.',
      canonical: 'https://shop.test/shop/product/alpha-kit',
      image: 'https://shop.test/shop/media/a/1.png',
      type: 'product',
      jsonLd: { '@type': 'Product', sku: 'alpha-kit', offers: { price: '49.00', priceCurrency: 'USD' } },
    });
    expect(head?.extra).toContain('<link rel="preload" as="image" href="/shop/media/a/1.png"');
    expect(queries).toEqual([[PAGE_QUERY_KEYS.product('alpha-kit'), product]]);
  });

  it('answers no head for an unknown kit, and "no such kit" to the screen', async () => {
    expect(await heads.product({ params: { sefId: 'nope' }, path: '/product/nope' })).toEqual({
      head: null,
      queries: [[PAGE_QUERY_KEYS.product('nope'), null]],
    });
    expect(await heads.docs({ params: { sefId: 'nope' }, path: '/docs/nope' })).toEqual({
      head: null,
      queries: [[PAGE_QUERY_KEYS.docs('nope'), null]],
    });
  });

  it('heads a docs page under its own path; a page the docs lack has none but keeps the docs', async () => {
    const found = await heads.docs({ params: { sefId: 'alpha-kit', page: 'deploy' }, path: '/docs/alpha-kit/deploy' });
    expect(found.head).toEqual({
      title: 'Alpha Kit Documentation — Kitshop',
      description: 'Documentation for Alpha Kit: The alpha spot.',
      canonical: 'https://shop.test/shop/docs/alpha-kit/deploy',
    });
    const missing = await heads.docs({ params: { sefId: 'alpha-kit', page: 'x' }, path: '/docs/alpha-kit/x' });
    expect(missing).toEqual({ head: null, queries: [[PAGE_QUERY_KEYS.docs('alpha-kit'), docs]] });
  });

  it('heads the home page with the kits it lists', async () => {
    const { head, queries } = await heads.home({ params: {}, path: '/' });
    expect(head?.canonical).toBe('https://shop.test/shop/');
    expect(queries).toEqual([[PAGE_QUERY_KEYS.products(), [product]]]);
  });
});
