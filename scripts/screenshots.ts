import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { THEMES } from './screenshots/data.ts';
import { dashboard, landing, list, phone, pipeline, settings, signIn } from './screenshots/templates.ts';

/**
 * `npm run screenshots`: renders the screens of each demo kit's app (HTML mock-ups themed per kit,
 * fixed data, so re-runs give the same images) and saves `<name>.jpg` (1280x800) and
 * `<name>-thumb.jpg` (640x400) in the kit's screenshots/ folder, for every entry of its details.json.
 * A kit without a theme in scripts/screenshots/data.ts (a seller's own kit) keeps the screenshots it has.
 */
const KIND: Record<string, string> = {
  'django-htmx-starter': 'tasks',
  'go-sveltekit-api': 'api',
  'laravel-vue-crm': 'crm',
  'nextjs-saas-starter': 'saas',
  'react-vite-admin': 'shop',
};

function render(sefId: string, name: string): string {
  const theme = THEMES[sefId];
  if (!theme) throw new Error(`No screenshot theme for ${sefId}: add one to scripts/screenshots/data.ts`);
  if (sefId === 'expo-mobile-starter') return phone(theme, name);
  if (name === 'sign-in') return signIn(theme);
  if (name === 'dashboard' || name === 'overview') return dashboard(theme, KIND[sefId] ?? 'shop');
  if (name === 'pipeline') return pipeline(theme);
  if (name === 'billing' || name === 'settings') return settings(theme, name);
  if (name === 'landing') return landing(theme);
  return list(theme, name);
}

const kitsDir = fileURLToPath(new URL('../content/kits', import.meta.url));
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const full = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const thumb = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 0.5 });
  for (const sefId of readdirSync(kitsDir).sort()) {
    if (!THEMES[sefId]) {
      console.log(`kits/${sefId}: no mock-up theme, its own screenshots are kept`);
      continue;
    }
    const details = JSON.parse(readFileSync(path.join(kitsDir, sefId, 'details.json'), 'utf8')) as {
      screenshots: { file: string }[];
    };
    for (const { file } of details.screenshots) {
      const name = file.replace(/\.\w+$/, '');
      const html = render(sefId, name);
      const target = path.join(kitsDir, sefId, 'screenshots', file);
      const thumbTarget = target.replace(/(\.\w+)$/, '-thumb$1');
      for (const [page, out, quality] of [
        [full, target, 72],
        [thumb, thumbTarget, 78],
      ] as const) {
        await page.setContent(html);
        await page.screenshot({ path: out, type: 'jpeg', quality });
      }
      console.log(`${path.relative(process.cwd(), target)}  ${Math.round(statSync(target).size / 1024)} KB`);
    }
  }
} finally {
  await browser.close();
}
