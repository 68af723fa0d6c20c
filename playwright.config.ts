import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.ts';

/** The e2e stack (tests/setup/e2e-stack.ts): one server at /, one under BASE_PATH=/shop. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4310);
export const ROOT_URL = `http://127.0.0.1:${E2E_PORT}`;
export const SHOP_URL = `http://127.0.0.1:${E2E_PORT + 1}/shop`;
/** The owner console's specs run on a shop of their own (they hide kits, refund, grant). */
export const OWNER_SHOP_URL = `http://127.0.0.1:${E2E_PORT + 2}`;
/** A shop with GA_MEASUREMENT_ID set (the analytics consent bar). */
export const ANALYTICS_SHOP_URL = `http://127.0.0.1:${E2E_PORT + 3}`;

const launchOptions = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // CI runs on a 2-core machine whose speed swings from minute to minute (two workers, four shops
  // and their database on it): a journey can take twice as long in a slow phase as in a fast one.
  // Locally the tighter limit keeps slow tests visible.
  timeout: process.env.CI ? 60_000 : 30_000,
  // The same for what a screen shows once the app has started: in a slow phase of that machine, a
  // screen's code can take seconds from its download to its first call. A check that holds still
  // passes as soon as it holds; explicit timeouts (a spec's delays) stay as they are.
  expect: { timeout: process.env.CI ? 15_000 : 7_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL: `${ROOT_URL}/`,
    trace: 'retain-on-failure',
    launchOptions,
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions } },
    // Only the specs whose point is what a phone shows (tagged @phone in their titles): the desktop
    // project walks every journey once.
    {
      name: 'mobile',
      grep: /@phone/,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        launchOptions,
      },
    },
  ],
  webServer: {
    command: 'node --import tsx tests/setup/e2e-stack.ts',
    // The owner console's shop starts last: the stack is ready when it answers.
    url: `${OWNER_SHOP_URL}/readyz`,
    // E2E_STACK=nginx starts nginx and two instances per shop: more to start.
    timeout: process.env.E2E_STACK === 'nginx' ? 240_000 : 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { E2E_PORT: String(E2E_PORT) },
  },
});
