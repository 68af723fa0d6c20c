import { heroScreenshot } from '../../../common/hero-image.ts';
import { PAGE_QUERY_KEYS, type PageQuery } from '../../../common/page-data.ts';
import type { KitProduct } from '../../../common/schemas/catalog.ts';
import { docsTitle, HOME_DESCRIPTION, HOME_TITLE, SITE_NAME } from '../../../common/site.ts';
import { escapeHtml } from '../../lib/escape.ts';
import type { PageHead, ScreenHeadBuilders } from '../../lib/page-head.ts';
import type { Catalog } from './catalog.service.ts';

/** Where the shop is: its public URL (for canonical and image URLs) and its base path (for preloads). */
type ShopUrls = { publicUrl: string; basePath: string };

/**
 * The product hero's screenshot (the page's largest paint on a wide screen), asked for with the
 * page rather than once its markup is parsed; phones, where it sits below the first screen, skip it.
 */
function heroPreload(product: KitProduct, basePath: string): string | undefined {
  const hero = heroScreenshot(product, basePath);
  if (!hero) return undefined;
  return `<link rel="preload" as="image" href="${escapeHtml(hero.src)}" imagesrcset="${escapeHtml(hero.srcSet)}" imagesizes="${escapeHtml(hero.sizes)}" media="(min-width: 992px)" fetchpriority="high">`;
}

function productHead(product: KitProduct, { publicUrl, basePath }: ShopUrls): PageHead {
  const url = `${publicUrl}/product/${product.sef_id}`;
  const images = product.details.screenshots.map((s) => `${publicUrl}/${s.url}`);
  return {
    extra: heroPreload(product, basePath),
    title: product.title,
    description: product.spot,
    canonical: url,
    image: images[0],
    type: 'product',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.title,
      description: product.spot,
      sku: product.sef_id,
      image: images,
      brand: { '@type': 'Brand', name: SITE_NAME },
      offers: {
        '@type': 'Offer',
        url,
        price: product.price.toFixed(2),
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
      },
    },
  };
}

/**
 * The heads of the catalog's screens (the home page, a product page, a kit's documentation) and the
 * answers each renders with, for the page shell: app.ts hands them over, as http/ knows no feature.
 */
export function catalogScreenHeads(catalog: Pick<Catalog, 'snapshot' | 'entry'>, urls: ShopUrls): ScreenHeadBuilders {
  return {
    async home() {
      const { list } = await catalog.snapshot();
      return {
        head: { title: HOME_TITLE, description: HOME_DESCRIPTION, canonical: `${urls.publicUrl}/` },
        queries: [[PAGE_QUERY_KEYS.products(), list]],
      };
    },
    async product({ params }) {
      const sefId = params.sefId ?? '';
      const entry = await catalog.entry(sefId);
      // `null` is "no such kit" to the screen, which then shows its own not-found page.
      if (!entry) return { head: null, queries: [[PAGE_QUERY_KEYS.product(sefId), null]] };
      return {
        head: productHead(entry.product, urls),
        queries: [[PAGE_QUERY_KEYS.product(entry.product.sef_id), entry.product]],
      };
    },
    async docs({ params, path }) {
      const entry = await catalog.entry(params.sefId ?? '');
      if (!entry?.docsJson) return { head: null, queries: [[PAGE_QUERY_KEYS.docs(params.sefId ?? ''), null]] };
      const queries: PageQuery[] = [[PAGE_QUERY_KEYS.docs(entry.product.sef_id), JSON.parse(entry.docsJson)]];
      // The docs screen shows its not-found page for a page the kit's docs lack.
      if (params.page && !entry.kit.docs.some((d) => d.slug === params.page)) return { head: null, queries };
      const { title, spot } = entry.product;
      return {
        head: {
          title: docsTitle(title),
          description: `Documentation for ${title}: ${spot}`,
          canonical: `${urls.publicUrl}${path}`,
        },
        queries,
      };
    },
  };
}
