import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Relative asset URLs: one build serves under any BASE_PATH (the server points index.html's
// URLs at the base path; chunks find each other relative to themselves).
export default defineConfig({
  root: 'src/web',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The server reads it to preload a lazy screen's chunk from the page shell.
    manifest: true,
    reportCompressedSize: false,
    rolldownOptions: {
      checks: { pluginTimings: false },
      // Everything the home route needs up front in one chunk: one request and one gzip
      // stream instead of four (the runtime, React, the site constants and the app).
      output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } },
    },
  },
  css: {
    preprocessorOptions: {
      scss: {
        // Bootstrap 5.3's Sass sources still use @import and global functions.
        silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
        quietDeps: true,
      },
    },
  },
});
