#!/usr/bin/env node
/**
 * Runs each kit's Quick Start the way a buyer would: builds the kit's archive as the shop does
 * (files sorted under `<sef_id>-<version>/`), unpacks it into a temporary folder, runs the Node
 * commands of its guide (`npm install` from the registry, `cp ...`, `cd ...`) and the dev command,
 * then fetches the page its comment names (`npm run dev   # http://localhost:5173`) and, when
 * Chromium is there, loads it and checks it renders without errors.
 *
 * A Quick Start code block is checked when every command in it is one of those; a block that also
 * needs Docker, Go, PHP, Python, make or a cloud CLI is reported as skipped (those kits say they
 * are samples). Not part of `npm test`: it downloads packages and takes minutes.
 *
 *   node scripts/check-demo-kits.mjs [--catalog content] [--screenshots DIR] [--keep] [kit ...]
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  promises as fs,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { unzipSync, zipSync } from 'fflate';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const flag = (name) => {
  const i = args.indexOf(name);
  if (i !== -1) args.splice(i, 1);
  return i !== -1;
};
const keep = flag('--keep');
const catalog = path.resolve(option('--catalog') ?? 'content');
const screenshots = option('--screenshots');
const only = args;

const SERVE_TIMEOUT_MS = 240_000;
const STEP_TIMEOUT_MS = 600_000;

/** The commands a Node Quick Start may hold; anything else makes the block someone else's stack. */
const NODE_COMMAND = /^(npm (install|ci)\b|npm run [\w:.-]+|cp \S+ \S+$|cd \S+$)/;

async function listFiles(dir, prefix = '') {
  const entries = (await fs.readdir(path.join(dir, prefix), { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const files = [];
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) files.push(rel);
  }
  return files;
}

/** The archive as catalog.read.ts builds it (same order, same root folder). */
async function buildArchive(sourceDir, root, releasedOn) {
  const mtime = new Date(`${releasedOn}T00:00:00Z`);
  const entries = {};
  for (const file of await listFiles(sourceDir))
    entries[`${root}/${file}`] = [new Uint8Array(await fs.readFile(path.join(sourceDir, file))), { mtime, level: 6 }];
  return zipSync(entries);
}

function unzipInto(bytes, dir) {
  for (const [name, data] of Object.entries(unzipSync(bytes))) {
    const target = path.resolve(dir, name);
    if (!target.startsWith(`${dir}${path.sep}`)) throw new Error(`${name} leaves the folder`);
    if (name.endsWith('/')) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, data);
  }
}

/** The bash blocks of the guide's Quick Start section (up to the next `## ` heading). */
function quickStartBlocks(setup) {
  const start = setup.search(/^## Quick Start\s*$/m);
  if (start === -1) return [];
  const rest = setup.slice(start + 1);
  const end = rest.search(/^## /m);
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^```(?:bash|sh|shell)\n([\s\S]*?)^```/gm)].map(([, body]) => body);
}

/** A block's commands, with the URL of the dev command; null when the block is not Node-only. */
function nodePlan(block, root) {
  const steps = [];
  let url;
  for (const raw of block.split('\n')) {
    const [command, comment = ''] = raw.split(/\s+#\s/);
    const line = command.trim();
    if (!line) continue;
    if (line === `unzip ${root}.zip && cd ${root}`) continue;
    if (!NODE_COMMAND.test(line)) return { skipped: line };
    const named = /https?:\/\/localhost:\d+\S*/.exec(comment)?.[0]?.replace(/[.,:;)]+$/, '');
    if (named && /^npm run (dev|start|preview)\b/.test(line)) url = named;
    steps.push({ line, serve: Boolean(named && /^npm run (dev|start|preview)\b/.test(line)) });
  }
  return url ? { steps, url } : { skipped: 'no dev command with a URL in its comment' };
}

function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function run(command, cwd, log) {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.on('data', (d) => log.push(String(d)));
    child.stderr.on('data', (d) => log.push(String(d)));
    const timer = setTimeout(() => void stop(child), STEP_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Stops a command and everything it started (its own process group, nothing else), and waits for it. */
async function stop(child) {
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
      return true;
    } catch {
      return false;
    }
  };
  if (!signal('SIGTERM')) return;
  for (let i = 0; i < 50 && signal(0); i++) await new Promise((r) => setTimeout(r, 100));
  signal('SIGKILL');
}

async function fetchPage(url, deadline, server) {
  let last = 'no answer';
  let exited;
  server.once('exit', (code) => {
    exited = code;
  });
  while (Date.now() < deadline) {
    if (exited !== undefined) return { ok: false, status: `the dev command exited with ${exited}` };
    try {
      const response = await fetch(url, { redirect: 'follow' });
      const body = await response.text();
      if (response.ok) return { ok: true, status: response.status, body };
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { ok: false, status: last };
}

/** Loads the page in Chromium (when the shop's Playwright and Debian's Chromium are there). */
async function render(url, name) {
  let chromium;
  try {
    ({ chromium } = await import('playwright'));
  } catch {
    return 'not checked (no Playwright)';
  }
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) return 'not checked (no Chromium)';
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const results = [];
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      const page = await browser.newPage({ viewport: { width, height } });
      const errors = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
      await page.waitForFunction(() => document.body.innerText.trim().length > 0, null, { timeout: 60_000 });
      await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => {});
      if (screenshots) {
        mkdirSync(screenshots, { recursive: true });
        await page.screenshot({ path: path.join(screenshots, `${name}-${width}.png`) });
      }
      const heading =
        (await page
          .locator('h1')
          .first()
          .textContent({ timeout: 5_000 })
          .catch(() => null)) ?? '';
      results.push({ width, heading: heading.trim(), errors });
      await page.close();
    }
    const errors = results.flatMap((r) => r.errors);
    if (errors.length > 0) throw new Error(`page errors: ${errors.join(' | ')}`);
    return `rendered, h1 "${results[0].heading}"`;
  } finally {
    await browser.close();
  }
}

function changelogTop(kitDir) {
  const changelog = readFileSync(path.join(kitDir, 'CHANGELOG.md'), 'utf8');
  const [, version, releasedOn] = /^## (\d+\.\d+\.\d+) - (\d{4}-\d{2}-\d{2})\s*$/m.exec(changelog) ?? [];
  return { version, releasedOn };
}

async function checkKit(sefId) {
  const kitDir = path.join(catalog, 'kits', sefId);
  const { version, releasedOn } = changelogTop(kitDir);
  const root = `${sefId}-${version}`;
  const setup = readFileSync(path.join(kitDir, 'setup.md'), 'utf8');
  const plans = quickStartBlocks(setup).map((block) => nodePlan(block, root));
  const runnable = plans.filter((plan) => plan.steps);
  if (runnable.length === 0) {
    const reasons = plans.map((p) => p.skipped).join('; ');
    return { sefId, result: 'skipped', detail: `not a Node Quick Start (${reasons || 'no code block'})` };
  }
  const results = [];
  for (const [i, plan] of runnable.entries()) {
    const downloads = mkdtempSync(path.join(os.tmpdir(), `check-${sefId}-`));
    const log = [];
    let cwd = path.join(downloads, root);
    const timings = [];
    let server;
    try {
      unzipInto(await buildArchive(path.join(kitDir, 'source'), root, releasedOn), downloads);
      const port = Number(new URL(plan.url).port);
      if (!(await portFree(port))) throw new Error(`port ${port} is already in use; stop what listens there first`);
      for (const step of plan.steps) {
        const cd = /^cd (\S+)$/.exec(step.line);
        if (cd) {
          cwd = path.resolve(cwd, cd[1]);
          continue;
        }
        if (step.serve) {
          const started = Date.now();
          server = spawn('sh', ['-c', step.line], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
          server.stdout.on('data', (d) => log.push(String(d)));
          server.stderr.on('data', (d) => log.push(String(d)));
          const page = await fetchPage(plan.url, Date.now() + SERVE_TIMEOUT_MS, server);
          timings.push(`${step.line}: ${page.ok ? `HTTP ${page.status}` : page.status} after ${secs(started)}`);
          if (!page.ok) throw new Error(`${plan.url} did not answer (${page.status})`);
          const rendered = await render(plan.url, runnable.length > 1 ? `${sefId}-${i + 1}` : sefId);
          timings.push(`browser: ${rendered}`);
          break;
        }
        const started = Date.now();
        const code = await run(step.line, cwd, log);
        timings.push(`${step.line}: ${secs(started)}`);
        if (code !== 0) throw new Error(`"${step.line}" exited with ${code}`);
      }
      results.push({ ok: true, detail: `${plan.url}\n      ${timings.join('\n      ')}` });
    } catch (error) {
      results.push({
        ok: false,
        detail: `${error.message}\n      ${timings.join('\n      ')}\n--- output (tail) ---\n${log.join('').slice(-3000)}`,
      });
    } finally {
      if (server) await stop(server);
      if (keep) console.log(`  kept ${downloads}`);
      else rmSync(downloads, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
    }
  }
  return {
    sefId,
    result: results.every((r) => r.ok) ? 'ok' : 'FAILED',
    detail: results.map((r) => r.detail).join('\n    '),
  };
}

const secs = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

const kitsDir = path.join(catalog, 'kits');
const kits = readdirSync(kitsDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort()
  .filter((k) => only.length === 0 || only.includes(k));
let failed = 0;
for (const sefId of kits) {
  const started = Date.now();
  console.log(`${sefId} ...`);
  const { result, detail } = await checkKit(sefId);
  if (result === 'FAILED') failed++;
  console.log(`  ${result} in ${secs(started)}: ${detail}`);
}
process.exit(failed > 0 ? 1 : 0);
