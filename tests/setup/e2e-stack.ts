import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OAuth2Server } from 'oauth2-mock-server';
import pg from 'pg';
import { type Stack, startStack } from '../../scripts/stack/stack.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { startGithubStandIn } from './github-stand-in.ts';
import { startSmtpServer } from './smtp.ts';

/**
 * The end-to-end stack: one embedded PostgreSQL, and the built server twice on it (own database
 * and data folder each): at the root and under BASE_PATH=/shop. The database address goes to
 * .tmp/e2e-state.json so fixtures can create users and sessions the way the app stores them.
 * With E2E_STACK=nginx, the shop at /, the shop under /shop and the owner console's shop are each
 * nginx in front of two instances (scripts/stack/stack.ts) on that database and an S3 bucket,
 * TRUST_PROXY set: the suite then runs through the proxy, its requests alternating between the
 * instances. Their own ports start at E2E_STACK_PORT (default E2E_PORT + 10), two per shop.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 4310);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'kitshop-e2e-'));
mkdirSync(path.join(root, '.tmp'), { recursive: true });
const children: ChildProcess[] = [];
const stacks: Stack[] = [];
const throughNginx = process.env.E2E_STACK === 'nginx';
const instancePort = Number(process.env.E2E_STACK_PORT ?? port + 10);

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
  // Written under another name and renamed, so a spec polling the folder never reads half a mail.
  onMail: (mail) => {
    const file = path.join(mailDir, `${String(++mailCount).padStart(5, '0')}.json`);
    writeFileSync(`${file}.part`, JSON.stringify(mail));
    renameSync(`${file}.part`, file);
  },
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

// A GitHub stand-in (REST and OAuth) for the root shop's private-repository delivery and the owner
// shop's release imports; specs drive it over HTTP (githubUrl/_stand-in/...).
const githubSettings = { token: 'ghp_e2e_token', clientId: 'Iv1.kitshop-e2e', clientSecret: 'kitshop-e2e-github' };
const github = await startGithubStandIn({
  ...githubSettings,
  repositories: ['kitshop-dev/nextjs-saas-starter', 'kitshop-dev/laravel-vue-crm'],
});

const state = {
  rootDatabaseUrl: urls.kitshop_e2e,
  shopDatabaseUrl: urls.kitshop_e2e_shop,
  ownerDatabaseUrl: urls.kitshop_e2e_owner,
  mailDir,
  claimsFile,
  githubUrl: github.url,
  /** With E2E_STACK=nginx, each shop's instances behind nginx, by shop: a spec asks each directly. */
  instanceUrls: {} as Record<string, string[]>,
};
const writeState = () => writeFileSync(path.join(root, '.tmp/e2e-state.json'), JSON.stringify(state));
writeState();

/** The shop at `appPort`: one server, or (E2E_STACK=nginx) nginx in front of two. */
async function startShop(
  name: string,
  appPort: number,
  basePath: string,
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
) {
  if (!throughNginx) return startApp(name, appPort, basePath, databaseUrl, extraEnv);
  const first = instancePort + stacks.length * 2;
  const prefix = basePath === '/' ? '' : basePath;
  state.instanceUrls[name] = [first, first + 1].map((p) => `http://127.0.0.1:${p}${prefix}`);
  writeState();
  stacks.push(
    await startStack({
      port: appPort,
      instancePorts: [first, first + 1],
      basePath,
      databaseUrl,
      // As a lone server would default it: its own port on localhost.
      publicUrl: extraEnv.PUBLIC_URL ?? `http://localhost:${appPort}${basePath === '/' ? '' : basePath}`,
      env: {
        CATALOG_DIR: process.env.E2E_CATALOG_DIR ?? path.join(root, 'content'),
        SUPPORT_EMAIL: 'support@kitshop.dev',
        ...extraEnv,
      },
    }),
  );
}

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
  await Promise.all(stacks.map((s) => s.stop()));
  await database.stop();
  await smtp.stop();
  await oidc.stop();
  await github.close();
  rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

try {
  await startShop('root', port, '/', urls.kitshop_e2e!, {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: smtp.url,
    GOOGLE_CLIENT_ID: 'kitshop-e2e',
    GOOGLE_CLIENT_SECRET: 'kitshop-e2e-secret',
    GOOGLE_ISSUER: oidc.issuer.url!,
    GITHUB_TOKEN: githubSettings.token,
    GITHUB_CLIENT_ID: githubSettings.clientId,
    GITHUB_CLIENT_SECRET: githubSettings.clientSecret,
    GITHUB_API_URL: github.apiUrl,
    GITHUB_WEB_URL: github.webUrl,
  });
  // Analytics configured (GA_MEASUREMENT_ID): the consent bar's spec, on a database of its own (a shared
  // one would share the mail outbox too); started before the /shop server, whose readiness Playwright waits for.
  await startApp('analytics', port + 3, '/', urls.kitshop_e2e_analytics!, {
    PUBLIC_URL: `http://127.0.0.1:${port + 3}`,
    GA_MEASUREMENT_ID: 'G-E2ETEST123',
  });
  await startShop('shop', port + 1, '/shop', urls.kitshop_e2e_shop!);
  // The owner console's specs change the store (hide kits, refund, grant, publish versions, import
  // GitHub releases): their own shop and database, on the same GitHub stand-in as the root shop.
  await startShop('owner', port + 2, '/', urls.kitshop_e2e_owner!, {
    PUBLIC_URL: `http://127.0.0.1:${port + 2}`,
    SMTP_URL: smtp.url,
    GITHUB_TOKEN: githubSettings.token,
    GITHUB_CLIENT_ID: githubSettings.clientId,
    GITHUB_CLIENT_SECRET: githubSettings.clientSecret,
    GITHUB_API_URL: github.apiUrl,
    GITHUB_WEB_URL: github.webUrl,
    // The seller its sandbox invoices name (tests/e2e/invoices.spec.ts).
    SELLER_NAME: 'Kitshop Test Sales Ltd',
    SELLER_ADDRESS: '1 Market Street; Dublin D01 X2Y3; Ireland',
    SELLER_TAX_ID: 'IE1234567WA',
  });
  console.log('e2e stack ready');
} catch (error) {
  console.error(error);
  await stop();
}
