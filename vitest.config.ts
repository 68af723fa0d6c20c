import { defineConfig } from 'vitest/config';

const shared = {
  setupFiles: ['tests/setup/fail-on-console-error.ts'],
  testTimeout: 20_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    pool: 'forks',
    // The server's tests spend most of their time waiting for PostgreSQL, not on a core: four
    // workers keep a 2-core machine busy (Vitest's default is one fewer than the cores).
    maxWorkers: 4,
    projects: [
      {
        test: {
          ...shared,
          name: 'server',
          // One database server for the run, a template database copied per file.
          globalSetup: ['tests/setup/global-setup.ts'],
          include: [
            'src/server/**/*.test.ts',
            'src/common/**/*.test.ts',
            'tests/integration/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          // Each file builds its own app on its own database (tests/setup/test-app.ts) and none
          // stubs a global or mocks a module, so the files of a worker share its loaded modules
          // instead of loading the whole server again for each file.
          isolate: false,
        },
      },
      {
        // The browser code's tests stub globals (`document`) and mock modules (Paddle.js): each
        // file in a fresh module graph.
        test: { ...shared, name: 'web', include: ['src/web/**/*.test.ts'], isolate: true },
      },
    ],
  },
});
