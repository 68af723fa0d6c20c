/**
 * The boundaries of docs/architecture.md, checked by `npm run lint` (dependency-cruiser).
 * Paths are resolved, so a rule holds whatever the relative path looks like.
 */
/** One forbidden dependency: what may not import what, and why (every rule is an error). */
const rule = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    rule(
      'web-and-server-apart',
      'The browser code never imports the server, and the server never imports the browser code: both share src/common.',
      { path: '^src/web/' },
      { path: '^src/server/' },
    ),
    rule(
      'server-and-web-apart',
      'The server never imports the browser code: both share src/common.',
      { path: '^src/server/' },
      { path: '^src/web/' },
    ),
    rule(
      'common-stands-alone',
      'src/common is imported by both sides and imports neither.',
      { path: '^src/common/' },
      { path: '^src/(server|web)/' },
    ),
    // Tests may set up their data through another feature's entry points (the catalog import).
    rule(
      'features-through-services',
      'A server feature reaches another only through the functions its service exports.',
      { path: '^src/server/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      {
        path: '^src/server/modules/',
        pathNot: ['^src/server/modules/$1/', '^src/server/modules/[^/]+/[^/]+\\.service\\.ts$'],
      },
    ),
    rule(
      'own-tables-only',
      'A server feature reads and writes only the tables of its own schema file (src/server/db/schema/<feature>.ts).',
      { path: '^src/server/modules/([^/]+)/' },
      { path: '^src/server/db/schema/', pathNot: '^src/server/db/schema/$1\\.ts$' },
    ),
    rule(
      'cross-cutting-below-features',
      'http/, lib/, db/ and integrations/ serve the features and never import them; app.ts and server.ts compose.',
      { path: '^src/server/(http|lib|db|integrations)/' },
      { path: '^src/server/modules/' },
    ),
    rule(
      'features-beside-the-shell',
      'The page shell serves the single-page app and is composed in app.ts; a feature never imports it (shared helpers live in lib/).',
      { path: '^src/server/modules/' },
      { path: '^src/server/http/page-shell\\.ts$' },
    ),
    rule(
      'web-features-apart',
      'A web feature never imports another; shared UI lives in components/, shared code in lib/, composition in app/.',
      { path: '^src/web/features/([^/]+)/' },
      { path: '^src/web/features/', pathNot: '^src/web/features/$1/' },
    ),
    rule(
      'web-shared-below-app',
      'lib/ and components/ are shared by every screen and never import app/ or a feature.',
      { path: '^src/web/(lib|components)/' },
      { path: '^src/web/(app|features)/' },
    ),
  ],
  options: {
    babelConfig: { fileName: require('node:path').join(__dirname, '.dependency-cruiser.babel.cjs') },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
