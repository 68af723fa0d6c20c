import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Relative asset URLs: one build serves under any BASE_PATH (the server points index.html's
// URLs at the base path; chunks find each other relative to themselves).
export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  base: './',
  plugins: [react()],
  build: {
    // The server's renderer (src/web/entry-server.tsx, `vite build --ssr`) goes beside the server.
    outDir: isSsrBuild ? '../../dist/ssr' : '../../dist/web',
    emptyOutDir: true,
    copyPublicDir: !isSsrBuild,
    target: 'es2022',
    sourcemap: false,
    // No modulepreload polyfill: every browser the shop supports preloads natively (Safari 17+,
    // Firefox 115+, Chromium); an older one still runs the app and only skips the preload hint.
    // (It kept ~680 bytes in the first load; the owner console's route costs less than that.)
    modulePreload: { polyfill: false },
    // The server reads it to preload a lazy screen's chunk from the page shell.
    manifest: !isSsrBuild,
    reportCompressedSize: false,
    rolldownOptions: {
      checks: { pluginTimings: false },
      // Everything the home route needs up front in one chunk: one request and one gzip
      // stream instead of four (the runtime, React, the site constants and the app).
      output: isSsrBuild ? {} : { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } },
    },
  },
  // The server renderer is one self-contained bundle: React-Bootstrap and its helpers use folder
  // imports (`react-bootstrap/Modal`) that resolve in a bundler but not in Node's ES module loader.
  // The server renderer is one self-contained bundle: React-Bootstrap and its helpers use folder
  // imports (`react-bootstrap/Modal`) that resolve in a bundler but not in Node's ES module loader.
  ssr: { noExternal: true },
  // The built renderer runs in the built server: React's production build, whatever NODE_ENV says
  // (the bench and a plain `npm start` leave it unset). Its development builds are left out of the
  // bundle, which the server otherwise keeps in memory as source and code (issue 12: server RSS).
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  css: {
    preprocessorOptions: {
      scss: {
        // Bootstrap 5.3's Sass sources still use @import and global functions.
        silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
        quietDeps: true,
      },
    },
  },
}));
