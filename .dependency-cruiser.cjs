/**
 * The boundaries of docs/architecture.md, checked by `npm run lint` (dependency-cruiser).
 * Paths are resolved, so a rule holds whatever the relative path looks like.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'web-and-server-apart',
      comment:
        'The browser code never imports the server, and the server never imports the browser code: both share src/common.',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-and-web-apart',
      comment: 'The server never imports the browser code: both share src/common.',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'common-stands-alone',
      comment: 'src/common is imported by both sides and imports neither.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/(server|web)/' },
    },
    {
      name: 'features-through-services',
      comment: 'A server feature reaches another only through the functions its service exports.',
      severity: 'error',
      // Tests may set up their data through another feature's entry points (the catalog import).
      from: { path: '^src/server/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^src/server/modules/',
        pathNot: ['^src/server/modules/$1/', '^src/server/modules/[^/]+/[^/]+\\.service\\.ts$'],
      },
    },
    {
      name: 'own-tables-only',
      comment:
        'A server feature reads and writes only the tables of its own schema file (src/server/db/schema/<feature>.ts).',
      severity: 'error',
      from: { path: '^src/server/modules/([^/]+)/' },
      to: { path: '^src/server/db/schema/', pathNot: '^src/server/db/schema/$1\\.ts$' },
    },
    {
      name: 'cross-cutting-below-features',
      comment:
        'http/, lib/, db/ and integrations/ serve the features and never import them; app.ts and server.ts compose.',
      severity: 'error',
      from: { path: '^src/server/(http|lib|db|integrations)/' },
      to: { path: '^src/server/modules/' },
    },
    {
      name: 'features-beside-the-shell',
      comment:
        'The page shell serves the single-page app and is composed in app.ts; a feature never imports it (shared helpers live in lib/).',
      severity: 'error',
      from: { path: '^src/server/modules/' },
      to: { path: '^src/server/http/page-shell\\.ts$' },
    },
    {
      name: 'web-features-apart',
      comment:
        'A web feature never imports another; shared UI lives in components/, shared code in lib/, composition in app/.',
      severity: 'error',
      from: { path: '^src/web/features/([^/]+)/' },
      to: { path: '^src/web/features/', pathNot: '^src/web/features/$1/' },
    },
    {
      name: 'web-shared-below-app',
      comment: 'lib/ and components/ are shared by every screen and never import app/ or a feature.',
      severity: 'error',
      from: { path: '^src/web/(lib|components)/' },
      to: { path: '^src/web/(app|features)/' },
    },
  ],
  options: {
    babelConfig: { fileName: require('node:path').join(__dirname, '.dependency-cruiser.babel.cjs') },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
