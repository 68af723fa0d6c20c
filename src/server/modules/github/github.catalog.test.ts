import { describe, expect, it } from 'vitest';
import { KitFileSchema } from '../catalog/catalog.content.ts';

describe("kit.json's github_repository", () => {
  const kit = {
    title: 'T',
    spot: 'S',
    position: 1,
    price: '9.00',
    paddle_price_id: 'pri_01abcdefghij',
    version: '1.0.0',
    features: ['a', 'b', 'c'],
  };
  it('is optional and must be owner/name', () => {
    expect(KitFileSchema.safeParse(kit).success).toBe(true);
    expect(KitFileSchema.safeParse({ ...kit, github_repository: 'acme/kit.js' }).success).toBe(true);
    for (const bad of ['acme', 'acme/kit/extra', '-acme/kit', 'acme/k it', 'https://github.com/acme/kit'])
      expect(KitFileSchema.safeParse({ ...kit, github_repository: bad }).success, bad).toBe(false);
  });
});
