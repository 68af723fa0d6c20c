import type { KitProduct } from './schemas/catalog.ts';

/**
 * The two sizes every screenshot is made in (scripts/screenshots.ts: a 1280x800 page, and the same
 * page at half scale for `-thumb`). Images are sized by these attributes, so nothing shifts while
 * they load.
 */
export const SCREENSHOT_FULL = { width: 1280, height: 800 } as const;
export const SCREENSHOT_THUMB = { width: 640, height: 400 } as const;

/**
 * How wide the hero's screenshot is drawn: half of Bootstrap's container from lg up (its column
 * less the gutter), the screen less the container's padding below. The browser picks the thumbnail
 * or the full image from it.
 */
export const HERO_IMAGE_SIZES =
  '(min-width: 1400px) 622px, (min-width: 1200px) 532px, (min-width: 992px) 442px, calc(100vw - 1.5rem)';

export type HeroImage = {
  src: string;
  /** `<thumbnail> 640w, <full> 1280w` (the full image alone when the kit has no thumbnail). */
  srcSet: string;
  sizes: string;
  width: number;
  height: number;
  alt: string;
};

/**
 * The product hero's image: the kit's first screenshot, or null without one. Pure (no window, no
 * document), so the server renderer can emit the same image as
 * `<link rel="preload" as="image" href=src imagesrcset=srcSet imagesizes=sizes fetchpriority="high">`.
 * `basePath` is the store's base path ('' at the root, '/shop' under one), as appUrl prefixes it.
 */
export function heroScreenshot(kit: Pick<KitProduct, 'details'>, basePath = ''): HeroImage | null {
  const shot = kit.details.screenshots[0];
  if (!shot) return null;
  const url = (path: string) => `${basePath}/${path.replace(/^\/+/, '')}`;
  const full = url(shot.url);
  const srcSet =
    shot.thumbnail_url === shot.url
      ? `${full} ${SCREENSHOT_FULL.width}w`
      : `${url(shot.thumbnail_url)} ${SCREENSHOT_THUMB.width}w, ${full} ${SCREENSHOT_FULL.width}w`;
  return { src: full, srcSet, sizes: HERO_IMAGE_SIZES, ...SCREENSHOT_FULL, alt: shot.alt };
}
