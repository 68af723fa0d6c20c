import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS } from '../../scripts/chromium.ts';
import { cpuSnapshot, foreignCpu, makeTempDir, onCleanUp, removeTempDir, stopStrays } from './proc.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export type FailingAudit = {
  id: string;
  title: string;
  score: number;
  displayValue?: string;
  /** Up to three elements or URLs the audit points at (selectors, snippets, resource URLs). */
  items: string[];
};

type DetailItem = { node?: { selector?: string; snippet?: string; nodeLabel?: string }; url?: unknown };

/** The elements or URLs an audit's details name, to tell a developer where to look. */
function detailItems(details: unknown): string[] {
  const items = (details as { items?: DetailItem[] } | undefined)?.items;
  if (!Array.isArray(items)) return [];
  const found: string[] = [];
  for (const item of items) {
    const node = item?.node;
    const label = node
      ? `${node.selector ?? ''} ${node.snippet ?? node.nodeLabel ?? ''}`.trim()
      : typeof item?.url === 'string'
        ? item.url
        : '';
    if (label && !found.includes(label)) found.push(label.length > 160 ? `${label.slice(0, 160)}…` : label);
    if (found.length === 3) break;
  }
  return found;
}

export type LighthouseFigures = {
  url: string;
  /** 0-100, or null when Lighthouse could not score the category. */
  scores: Record<Category, number | null>;
  /** Per category: its audits that lose points (score < 1; informative/n.a./manual left out). */
  failing: Record<Category, FailingAudit[]>;
  /** Lighthouse's simulated (mobile) page metrics, null when it could not measure one. */
  metrics: { lcpMs: number | null; tbtMs: number | null; cls: number | null; fcpMs: number | null };
  runtimeError?: string;
  warnings: string[];
  /** CPU seconds other processes used during the audit, and the busiest of them. */
  foreign: { seconds: number; top: string[] };
  durationS: number;
};

const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

const NOT_SCORED = new Set(['informative', 'notApplicable', 'manual', 'error']);

/** One Lighthouse run with the default (mobile) config, in a fresh headless Chromium. */
export async function runLighthouse(url: string, chromePath: string): Promise<LighthouseFigures> {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`bench: refusing to audit a non-loopback URL: ${url}`);
  const userDataDir = makeTempDir('kitshop-bench-chrome-');
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: CHROME_FLAGS,
    userDataDir,
    logLevel: 'silent',
    handleSIGINT: false, // bench/run.ts stops everything on SIGINT
  });
  const forget = onCleanUp(() => chrome.kill());
  const before = cpuSnapshot();
  const began = Date.now();
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      maxWaitForLoad: 45_000,
    });
    // Measured before Chromium is killed: its helpers are recognised by its profile folder.
    const foreign = foreignCpu(before, cpuSnapshot());
    const durationS = (Date.now() - began) / 1000;
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    const { lhr } = result;
    const scores = {} as LighthouseFigures['scores'];
    const failing = {} as LighthouseFigures['failing'];
    for (const id of CATEGORIES) {
      const category = lhr.categories[id];
      scores[id] = category?.score == null ? null : Math.round(category.score * 100);
      failing[id] = [];
      for (const ref of category?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (!audit || audit.score === null || audit.score >= 1) continue;
        if (NOT_SCORED.has(audit.scoreDisplayMode)) continue;
        failing[id].push({
          id: audit.id,
          title: audit.title,
          score: audit.score,
          ...(audit.displayValue ? { displayValue: String(audit.displayValue) } : {}),
          items: detailItems(audit.details),
        });
      }
    }
    const numeric = (id: string) => {
      const value = lhr.audits[id]?.numericValue;
      return typeof value === 'number' ? value : null;
    };
    return {
      url,
      scores,
      failing,
      metrics: {
        lcpMs: numeric('largest-contentful-paint'),
        tbtMs: numeric('total-blocking-time'),
        cls: numeric('cumulative-layout-shift'),
        fcpMs: numeric('first-contentful-paint'),
      },
      ...(lhr.runtimeError ? { runtimeError: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
      warnings: lhr.runWarnings.map(String),
      foreign,
      durationS,
    };
  } finally {
    forget();
    chrome.kill();
    // Helpers that left Chromium's process group still name the profile folder.
    await stopStrays([userDataDir], 1_000);
    try {
      removeTempDir(userDataDir);
    } catch {}
  }
}
