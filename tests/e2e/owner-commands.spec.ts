import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../../src/server/lib/free-port.ts';
import { expect, test } from './fixtures.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const shell = promisify(execFile);

/**
 * The owner's day as the README tells it: `npm start` serving on the embedded database in DATA_DIR,
 * and the owner commands run beside it in another terminal.
 */
test.describe('owner commands beside a running store', () => {
  test.skip(({ isMobile }) => isMobile, 'commands, not a screen: once is enough');
  test.setTimeout(120_000);

  let dataDir: string;
  let store: ChildProcess;
  let storeUrl: string;
  let env: NodeJS.ProcessEnv;

  test.beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-owner-cli-'));
    const port = await freePort();
    storeUrl = `http://127.0.0.1:${port}`;
    env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), RATE_LIMITS: 'off' };
    store = spawn(process.execPath, ['dist/node/server/main.js'], { cwd: root, env, stdio: 'ignore' });
    await expect(async () => expect((await fetch(`${storeUrl}/readyz`)).ok).toBe(true)).toPass({ timeout: 60_000 });
  });
  test.afterAll(async () => {
    if (store.exitCode === null) {
      const exited = new Promise((resolve) => store.once('exit', resolve));
      store.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('exports a subscriber signed up on the page to a clean CSV, both ways the README gives', async ({ page }) => {
    const email = `reader-${Date.now()}@example.com`;
    await page.goto(`${storeUrl}/`);
    await page.getByRole('contentinfo').getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText('Subscription Successfull')).toBeVisible();

    const file = path.join(dataDir, 'subscribers.csv');
    await shell('npm', ['run', 'subscribers', '--', 'export', file], { cwd: root, env });
    const redirected = path.join(dataDir, 'redirected.csv');
    await shell('bash', ['-c', `npm run -s subscribers -- export > ${redirected}`], { cwd: root, env });
    for (const csv of [file, redirected]) {
      const lines = readFileSync(csv, 'utf8').trim().split('\n');
      expect(lines[0], csv).toBe('email,subscribed_at');
      expect(lines.slice(1), csv).toEqual([
        expect.stringMatching(new RegExp(`^${email.replace(/\./g, '\\.')},\\d{4}-`)),
      ]);
    }
    // The other commands read the same running database.
    const { stdout } = await shell('npm', ['run', '-s', 'messages', '--', 'list'], { cwd: root, env });
    expect(stdout).toBe('No contact messages yet.\n');
  });
});
