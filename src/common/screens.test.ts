import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { componentName, renderedModules, SCREEN_PATTERNS, SCREENS, screenOf } from './screens.ts';

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
