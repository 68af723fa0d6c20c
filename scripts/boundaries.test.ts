import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { plantTree } from './test-tree.ts';

/**
 * The boundary rules of `npm run lint` (.dependency-cruiser.cjs) run on a small tree with one
 * deliberate violation per rule, and on the same tree without them.
 */
const root = path.resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'kitshop-boundaries-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const tree = (name: string, files: Record<string, string>) => plantTree(tmp, name, files);

async function cruise(dir: string): Promise<string> {
  const bin = path.join(root, 'node_modules/.bin/depcruise');
  const args = ['src', '--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'err'];
  try {
    const { stdout } = await promisify(execFile)(bin, args, { cwd: dir });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return `FAILED\n${stdout}${stderr}`;
  }
}

const allowed = {
  'src/common/money.ts': 'export const cents = 1;\n',
  'src/server/db/schema/orders.ts': 'export const orders = {};\n',
  'src/server/db/schema/library.ts': 'export const entitlements = {};\n',
  'src/server/modules/library/library.service.ts':
    "import { entitlements } from '../../db/schema/library.ts';\nexport const grant = () => entitlements;\n",
  'src/server/modules/orders/orders.service.ts':
    "import { orders } from '../../db/schema/orders.ts';\nimport { grant } from '../library/library.service.ts';\nimport { cents } from '../../../common/money.ts';\nexport const pay = () => [orders, grant, cents];\n",
  'src/web/lib/api.ts': 'export const api = 1;\n',
  'src/web/app/toasts.tsx': "import { api } from '../lib/api.ts';\nexport const toast = () => <p>{api}</p>;\n",
  'src/web/features/cart/cart-page.tsx':
    "import { toast } from '../../app/toasts.tsx';\nexport const CartPage = () => <div>{toast()}</div>;\n",
};

describe('boundary rules', () => {
  it('pass a tree that keeps them', async () => {
    expect(await cruise(tree('clean', allowed))).toContain('no dependency violations found');
  });

  it.each([
    ['web-and-server-apart', 'src/web/lib/x.ts', "import type { orders } from '../../server/db/schema/orders.ts';"],
    ['server-and-web-apart', 'src/server/modules/orders/x.ts', "import { api } from '../../../web/lib/api.ts';"],
    ['features-through-services', 'src/server/modules/orders/x.ts', "import '../library/library.routes.ts';"],
    ['own-tables-only', 'src/server/modules/orders/x.ts', "import { entitlements } from '../../db/schema/library.ts';"],
    [
      'cross-cutting-below-features',
      'src/server/http/x.ts',
      "import type { pay } from '../modules/orders/orders.service.ts';",
    ],
    ['features-beside-the-shell', 'src/server/modules/orders/x.ts', "import '../../http/page-shell.ts';"],
    ['web-features-apart', 'src/web/features/checkout/x.tsx', "import { CartPage } from '../cart/cart-page.tsx';"],
    ['web-shared-below-app', 'src/web/lib/x.ts', "import { toast } from '../app/toasts.tsx';"],
  ])('%s fails lint when broken', async (rule, file, line) => {
    const files: Record<string, string> = { ...allowed, [file]: `${line}\nexport const probe = 1;\n` };
    if (rule === 'features-through-services') files['src/server/modules/library/library.routes.ts'] = 'export {};\n';
    if (rule === 'features-beside-the-shell') files['src/server/http/page-shell.ts'] = 'export {};\n';
    const output = await cruise(tree(rule, files));
    expect(output).toContain('FAILED');
    expect(output).toContain(`error ${rule}: ${file}`);
  });
});
