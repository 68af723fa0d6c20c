import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The demo catalog the servers import on their first start. The screenshots in
 * content/kits/<kit>/screenshots/ are made by `npm run screenshots`; while they are missing the
 * server refuses the whole catalog, so the bench then imports a temporary copy of content/ with
 * placeholder screenshots of the same pixel sizes (1280×800, thumbnails 640×400) and says so.
 */
export type CatalogSource = { dir: string; placeholders: string[] };

type Shot = { kit: string; file: string };

function missingScreenshots(catalogDir: string): Shot[] {
  const missing: Shot[] = [];
  const kitsDir = path.join(catalogDir, 'kits');
  for (const kit of readdirSync(kitsDir)) {
    const detailsFile = path.join(kitsDir, kit, 'details.json');
    if (!existsSync(detailsFile)) continue;
    let details: { screenshots?: { file?: unknown }[] };
    try {
      details = JSON.parse(readFileSync(detailsFile, 'utf8'));
    } catch {
      continue; // the server reports it
    }
    for (const shot of details.screenshots ?? []) {
      if (typeof shot.file !== 'string') continue;
      // The thumbnail is optional; when the image itself is missing, both are made.
      if (existsSync(path.join(kitsDir, kit, 'screenshots', shot.file))) continue;
      missing.push({ kit, file: shot.file });
      const thumb = shot.file.replace(/(\.\w+)$/, '-thumb$1');
      if (!existsSync(path.join(kitsDir, kit, 'screenshots', thumb))) missing.push({ kit, file: thumb });
    }
  }
  return missing;
}

function placeholderHtml(title: string, width: number, height: number): string {
  const rows = Array.from(
    { length: 8 },
    (_, i) =>
      `<div class="row"><span style="width:${30 + ((i * 17) % 50)}%"></span><span style="width:${10 + ((i * 7) % 20)}%"></span></div>`,
  ).join('');
  return `<!doctype html><html><head><style>
    *{box-sizing:border-box;margin:0}
    body{width:${width}px;height:${height}px;font:16px/1.4 sans-serif;background:#f1f5f9;display:flex;color:#0f172a}
    nav{width:18%;background:#0f172a;padding:24px}
    nav i{display:block;height:14px;margin:0 0 18px;border-radius:7px;background:#334155}
    main{flex:1;padding:32px}
    h1{font-size:28px;margin-bottom:24px}
    .cards{display:flex;gap:16px;margin-bottom:24px}
    .cards div{flex:1;height:90px;border-radius:12px;background:linear-gradient(135deg,#6366f1,#22d3ee)}
    .panel{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 3px #0002}
    .row{display:flex;justify-content:space-between;padding:12px 0;border-bottom:1px solid #e2e8f0}
    .row span{height:12px;border-radius:6px;background:#cbd5e1}
  </style></head><body><nav>${'<i></i>'.repeat(7)}</nav><main><h1>${title}</h1>
  <div class="cards"><div></div><div></div><div></div><div></div></div><div class="panel">${rows}</div></main></body></html>`;
}

/** Renders the missing images with Playwright's Chromium API on Debian's Chromium (never downloaded). */
async function renderPlaceholders(catalogDir: string, shots: Shot[], chromiumPath: string): Promise<void> {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    for (const shot of shots) {
      const thumb = /-thumb\.\w+$/.test(shot.file);
      const [width, height] = thumb ? [640, 400] : [1280, 800];
      await page.setViewportSize({ width, height });
      await page.setContent(placeholderHtml(`${shot.kit} – ${shot.file}`, width, height));
      const type = shot.file.endsWith('.png') ? 'png' : 'jpeg';
      const dir = path.join(catalogDir, 'kits', shot.kit, 'screenshots');
      mkdirSync(dir, { recursive: true });
      await page.screenshot({
        path: path.join(dir, shot.file),
        type,
        ...(type === 'jpeg' ? { quality: 80 } : {}),
      });
    }
  } finally {
    await browser.close();
  }
}

export async function prepareCatalog(
  contentDir: string,
  tempDir: string,
  chromiumPath: string,
): Promise<CatalogSource> {
  const missing = missingScreenshots(contentDir);
  if (missing.length === 0) return { dir: contentDir, placeholders: [] };
  const copy = path.join(tempDir, 'content');
  cpSync(contentDir, copy, { recursive: true });
  await renderPlaceholders(copy, missing, chromiumPath);
  return { dir: copy, placeholders: missing.map((s) => `${s.kit}/screenshots/${s.file}`) };
}
