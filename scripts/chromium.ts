/**
 * Debian's Chromium, as every browser-driving tool here launches it (Playwright, the screenshot
 * script, the benchmarks). The networking flags matter: this machine's closed network refuses
 * Chromium's background connections, and no browser is ever downloaded.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
