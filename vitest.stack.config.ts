import { defineConfig } from 'vitest/config';

/**
 * The two-instance stack behind nginx (tests/stack): needs the build (`npm run build`) and nginx,
 * so it runs apart from the unit and integration suites: `npm run test:stack`.
 */
export default defineConfig({
  test: {
    include: ['tests/stack/**/*.test.ts'],
    setupFiles: ['tests/setup/fail-on-console-error.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
