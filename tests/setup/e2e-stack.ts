import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OAuth2Server } from 'oauth2-mock-server';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { startSmtpServer } from './smtp.ts';

/**
 * The end-to-end stack: one embedded PostgreSQL, and the built server twice on it (own database
 * and data folder each): at the root and under BASE_PATH=/shop. The database address goes to
 * .tmp/e2e-state.json so fixtures can create users and sessions the way the app stores them.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 4310);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'kitshop-e2e-'));
mkdirSync(path.join(root, '.tmp'), { recursive: true });
const children: ChildProcess[] = [];

// The servers connect as the app role (owner of both databases, no superuser), as in production.
const database = await startEmbeddedPostgres(
  tmp,
  { info: () => {}, error: console.error },
  {
    database: 'kitshop_e2e',
    durable: false,
  },
);
const admin = new pg.Client({ connectionString: database.adminUrl });
await admin.connect();
await admin.query('CREATE DATABASE kitshop_e2e_shop OWNER kitshop');
await admin.query('CREATE DATABASE kitshop_e2e_owner OWNER kitshop');
await admin.query('CREATE DATABASE kitshop_e2e_analytics OWNER kitshop');
const urls: Record<string, string> = {};
for (const name of ['kitshop_e2e', 'kitshop_e2e_shop', 'kitshop_e2e_owner', 'kitshop_e2e_analytics']) {
  const url = new URL(database.url);
  url.pathname = `/${name}`;
  urls[name] = url.toString();
}
await admin.end();
// A real SMTP server: each mail it takes lands in .tmp/e2e-mail/ for the specs to read.
const mailDir = path.join(root, '.tmp/e2e-mail');
rmSync(mailDir, { recursive: true, force: true });
mkdirSync(mailDir, { recursive: true });
let mailCount = 0;
const smtp = await startSmtpServer({
  onMail: (mail) =>
    writeFileSync(path.join(mailDir, `${String(++mailCount).padStart(5, '0')}.json`), JSON.stringify(mail)),
});

// A real OpenID Connect issuer standing in for Google; the claims of the next sign-in come from
// .tmp/e2e-oidc-claims.json, which a spec writes before it clicks the Google button.
const claimsFile = path.join(root, '.tmp/e2e-oidc-claims.json');
const oidc = new OAuth2Server();
await oidc.issuer.keys.generate('RS256');
await oidc.start(0, '127.0.0.1');
oidc.service.on('beforeTokenSigning', (token) => {
  try {
    Object.assign(token.payload, JSON.parse(readFileSync(claimsFile, 'utf8')));
  } catch {}
});

writeFileSync(
  path.join(root, '.tmp/e2e-state.json'),
  JSON.stringify({
    rootDatabaseUrl: urls.kitshop_e2e,
    shopDatabaseUrl: urls.kitshop_e2e_shop,
    ownerDatabaseUrl: urls.kitshop_e2e_owner,
    mailDir,
    claimsFile,
  }),
);

async function startApp(
  name: string,
  appPort: number,
  basePath: string,
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
) {
  const dataDir = path.join(tmp, name);
  const child = spawn(process.execPath, [path.join(root, 'dist/node/server/main.js')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(appPort),
      HOST: '127.0.0.1',
      BASE_PATH: basePath,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      CATALOG_DIR: process.env.E2E_CATALOG_DIR ?? path.join(root, 'content'),
      LOG_LEVEL: 'warn',
      SUPPORT_EMAIL: 'support@kitshop.dev',
      ...extraEnv,
    },
  });
  children.push(child);
  const ready = `http://127.0.0.1:${appPort}${basePath === '/' ? '' : basePath}/readyz`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${name} server exited with ${child.exitCode}`);
    try {
      if ((await fetch(ready)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} server did not become ready`);
}

const stop = async () => {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  await database.stop();
  await smtp.stop();
  await oidc.stop();
  rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

try {
  await startApp('root', port, '/', urls.kitshop_e2e!, {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: smtp.url,
    GOOGLE_CLIENT_ID: 'kitshop-e2e',
    GOOGLE_CLIENT_SECRET: 'kitshop-e2e-secret',
    GOOGLE_ISSUER: oidc.issuer.url!,
  });
  // Analytics configured (GA_MEASUREMENT_ID): the consent bar's spec, on a database of its own (a shared
  // one would share the mail outbox too); started before the /shop server, whose readiness Playwright waits for.
  await startApp('analytics', port + 3, '/', urls.kitshop_e2e_analytics!, {
    PUBLIC_URL: `http://127.0.0.1:${port + 3}`,
    GA_MEASUREMENT_ID: 'G-E2ETEST123',
  });
  await startApp('shop', port + 1, '/shop', urls.kitshop_e2e_shop!);
  // The owner console's specs change the store (hide kits, refund, grant): their own shop and database.
  await startApp('owner', port + 2, '/', urls.kitshop_e2e_owner!, {
    PUBLIC_URL: `http://127.0.0.1:${port + 2}`,
    SMTP_URL: smtp.url,
  });
  console.log('e2e stack ready');
} catch (error) {
  console.error(error);
  await stop();
}
