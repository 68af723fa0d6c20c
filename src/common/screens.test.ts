import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  componentName,
  matchesPattern,
  OWNER_SCREEN_PATTERNS,
  renderedModules,
  SCREEN_PATTERNS,
  SCREENS,
  screenOf,
} from './screens.ts';

const webSource = (module: string) => readFileSync(path.resolve('src/web', module), 'utf8');

describe('the table of screens', () => {
  it('names for each screen a module that exports the component the router takes from it', () => {
    const modules = new Set(
      SCREEN_PATTERNS.flatMap((pattern) => {
        const { module, layout } = screenOf(pattern);
        return layout ? [module, layout] : [module];
      }),
    );
    for (const module of modules) {
      expect(webSource(module), module).toMatch(new RegExp(`export function ${componentName(module)}\\b`));
    }
  });

  it('derives component names from file names', () => {
    expect(componentName('features/catalog/product-page.tsx')).toBe('ProductPage');
    expect(componentName('features/accounts/auth-layout.tsx')).toBe('AuthLayout');
    expect(componentName('app/user-panel-page.tsx')).toBe('UserPanelPage');
  });

  it("preloads a rendered screen's layout and code, nothing for the first load's or the browser's screens", () => {
    expect(renderedModules('/')).toEqual([]);
    expect(renderedModules('/login')).toEqual([
      'features/accounts/auth-layout.tsx',
      'features/accounts/login-page.tsx',
    ]);
    expect(renderedModules('/product/:sefId')).toEqual(['features/catalog/product-page.tsx']);
    expect(renderedModules('/checkout')).toBeUndefined();
  });

  it('gives every screen a title or a head of its own', () => {
    expect(SCREEN_PATTERNS.filter((p) => !('title' in SCREENS[p]) && !('head' in SCREENS[p]))).toEqual([]);
  });
});

describe('the owner console’s screens', () => {
  it('match their own paths only, a trailing slash allowed, `:id` one segment', () => {
    expect(matchesPattern('/admin', '/admin')).toBe(true);
    expect(matchesPattern('/admin', '/admin/')).toBe(true);
    expect(matchesPattern('/admin', '/admin/orders')).toBe(false);
    expect(matchesPattern('/admin/orders/:id', '/admin/orders/ord_1')).toBe(true);
    expect(matchesPattern('/admin/orders/:id', '/admin/orders/ord_1/x')).toBe(false);
    expect(matchesPattern('/admin/orders/:id', '/admin/orders/')).toBe(false);
  });

  it('give every console path exactly one screen', () => {
    for (const path of ['/admin', '/admin/orders', '/admin/orders/ord_x', '/admin/customers/12', '/admin/activity'])
      expect(
        OWNER_SCREEN_PATTERNS.filter((pattern) => matchesPattern(pattern, path)),
        path,
      ).toHaveLength(1);
    expect(OWNER_SCREEN_PATTERNS.filter((pattern) => matchesPattern(pattern, '/admin/nothing'))).toEqual([]);
  });
});
