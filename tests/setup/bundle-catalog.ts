import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURE_CATALOG } from './test-app.ts';

/**
 * The fixture catalog plus `duo-bundle`, a bundle of its two kits (59.00; upgrades never below
 * 15.00), in a temporary folder the caller removes.
 */
export function bundleCatalog(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-bundle-'));
  cpSync(FIXTURE_CATALOG, dir, { recursive: true });
  const kitDir = path.join(dir, 'kits/duo-bundle');
  cpSync(path.join(dir, 'kits/alpha-kit'), kitDir, { recursive: true });
  const kit = JSON.parse(readFileSync(path.join(kitDir, 'kit.json'), 'utf8'));
  writeFileSync(
    path.join(kitDir, 'kit.json'),
    JSON.stringify({
      ...kit,
      title: 'Duo Bundle',
      position: 3,
      price: '59.00',
      discounted_from: undefined,
      licenses: undefined,
      paddle_price_id: 'pri_01duobundleduobundle',
      includes: ['alpha-kit', 'beta-kit'],
      upgrade_floor: '15.00',
    }),
  );
  const setup = path.join(kitDir, 'setup.md');
  writeFileSync(setup, readFileSync(setup, 'utf8').replaceAll('alpha-kit', 'duo-bundle'));
  return dir;
}
