import { describe, expect, it } from 'vitest';
import { heroScreenshot } from './hero-image.ts';

const shot = (name: string, thumb = true) => ({
  url: `media/screenshots/kit/aa-${name}.jpg`,
  thumbnail_url: thumb ? `media/screenshots/kit/bb-${name}-thumb.jpg` : `media/screenshots/kit/aa-${name}.jpg`,
  alt: `The ${name} screen`,
  title: name,
});
const kit = (screenshots: ReturnType<typeof shot>[]) =>
  ({ details: { screenshots } }) as unknown as Parameters<typeof heroScreenshot>[0];

describe('heroScreenshot', () => {
  it("is the first screenshot at its 1280x800, the thumbnail offered for narrow slots, under the store's base path", () => {
    const image = heroScreenshot(kit([shot('dashboard'), shot('billing')]), '/shop');
    expect(image).toMatchObject({
      src: '/shop/media/screenshots/kit/aa-dashboard.jpg',
      srcSet:
        '/shop/media/screenshots/kit/bb-dashboard-thumb.jpg 640w, /shop/media/screenshots/kit/aa-dashboard.jpg 1280w',
      width: 1280,
      height: 800,
      alt: 'The dashboard screen',
    });
    expect(image?.sizes).toContain('(min-width: 992px)');
  });

  it('offers the full image alone when there is no thumbnail, at the root', () => {
    expect(heroScreenshot(kit([shot('home', false)]))).toMatchObject({
      src: '/media/screenshots/kit/aa-home.jpg',
      srcSet: '/media/screenshots/kit/aa-home.jpg 1280w',
    });
  });

  it('is null for a kit without screenshots', () => {
    expect(heroScreenshot(kit([]))).toBeNull();
  });
});
