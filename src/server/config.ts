import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RETENTION_DAYS } from '../common/constants.ts';
import { normaliseBasePath } from '../common/paths.ts';
import { isTimeZone } from '../common/shop-days.ts';
import { SITE_NAME } from '../common/site.ts';

/** Empty strings count as unset, as in a `.env` file with `NAME=`. */
const optional = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const withDefault = (fallback: string) => z.preprocess((v) => (v === '' || v === undefined ? fallback : v), z.string());

const EnvSchema = z.object({
  NODE_ENV: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['development', 'production', 'test']).optional()),
  PORT: z.preprocess((v) => (v === '' || v === undefined ? '3000' : v), z.coerce.number().int().min(0).max(65535)),
  HOST: withDefault('127.0.0.1'),
  BASE_PATH: withDefault('/').refine((v) => v.startsWith('/'), 'must start with "/"'),
  PUBLIC_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATA_DIR: withDefault('./data'),
  DATABASE_URL: optional,
  SMTP_URL: optional,
  MAIL_FROM: withDefault('Kitshop <no-reply@kitshop.dev>'),
  SUPPORT_EMAIL: withDefault('support@kitshop.dev').pipe(z.email()),
  PAYMENT_PROVIDER: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['sandbox', 'paddle']).optional()),
  PADDLE_CLIENT_TOKEN: optional,
  PADDLE_ENVIRONMENT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['sandbox', 'production']).optional()),
  PADDLE_WEBHOOK_SECRET: optional,
  PADDLE_API_KEY: optional,
  PADDLE_API_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OWNER_EMAILS: optional,
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_ISSUER: withDefault('https://accounts.google.com'),
  GITHUB_TOKEN: optional,
  GITHUB_CLIENT_ID: optional,
  GITHUB_CLIENT_SECRET: optional,
  GITHUB_API_URL: withDefault('https://api.github.com').pipe(z.url({ protocol: /^https?$/ })),
  GITHUB_WEB_URL: withDefault('https://github.com').pipe(z.url({ protocol: /^https?$/ })),
  GA_MEASUREMENT_ID: optional.pipe(
    z
      .string()
      .regex(/^G-[A-Z0-9]+$/, 'must look like G-XXXXXXX')
      .optional(),
  ),
  SESSION_SECRET: optional.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  CATALOG_DIR: withDefault('./content'),
  S3_ENDPOINT: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  S3_BUCKET: optional,
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_REGION: withDefault('us-east-1'),
  TRUST_PROXY: optional,
  METRICS_TOKEN: optional.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  MESSAGE_RETENTION_DAYS: z.preprocess(
    (v) => (v === '' || v === undefined ? String(RETENTION_DAYS.contactMessages) : v),
    z.coerce.number().int('must be a whole number of days').min(1).max(36_500),
  ),
  RATE_LIMITS: withDefault('on').pipe(z.enum(['on', 'off'])),
  SHOP_TIME_ZONE: withDefault('UTC').refine(
    isTimeZone,
    'must be an IANA time zone such as UTC, Europe/Berlin or America/New_York',
  ),
  SELLER_NAME: withDefault(SITE_NAME).pipe(z.string().max(200, 'at most 200 characters')),
  SELLER_ADDRESS: optional.pipe(z.string().max(500, 'at most 500 characters').optional()),
  SELLER_TAX_ID: optional.pipe(z.string().max(40, 'at most 40 characters').optional()),
  LOG_LEVEL: withDefault('info').pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
});

export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function toConfig(env: z.output<typeof EnvSchema>) {
  const production = env.NODE_ENV === 'production';
  const basePath = normaliseBasePath(env.BASE_PATH);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}${basePath}`).replace(/\/+$/, '');
  return {
    production,
    port: env.PORT,
    host: env.HOST,
    /** '' for the root, '/shop' otherwise: routes are registered under it. */
    basePath,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    supportEmail: env.SUPPORT_EMAIL,
    paymentProvider: env.PAYMENT_PROVIDER ?? 'sandbox',
    paddle: {
      clientToken: env.PADDLE_CLIENT_TOKEN,
      environment: env.PADDLE_ENVIRONMENT ?? 'sandbox',
      webhookSecret: env.PADDLE_WEBHOOK_SECRET,
      apiKey: env.PADDLE_API_KEY,
      /** Server-side calls (refunds); a local stand-in in tests. */
      apiUrl: (
        env.PADDLE_API_URL ??
        (env.PADDLE_ENVIRONMENT === 'production' ? 'https://api.paddle.com' : 'https://sandbox-api.paddle.com')
      ).replace(/\/+$/, ''),
    },
    /** Lower-cased: their verified accounts are owners (besides those added with `npm run owner`). */
    ownerEmails: (env.OWNER_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, issuer: env.GOOGLE_ISSUER }
        : undefined,
    /** Private-repository delivery: on only with the token and the OAuth app (docs in the README). */
    github:
      env.GITHUB_TOKEN && env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET
        ? {
            token: env.GITHUB_TOKEN,
            clientId: env.GITHUB_CLIENT_ID,
            clientSecret: env.GITHUB_CLIENT_SECRET,
            apiUrl: env.GITHUB_API_URL.replace(/\/+$/, ''),
            webUrl: env.GITHUB_WEB_URL.replace(/\/+$/, ''),
          }
        : undefined,
    gaMeasurementId: env.GA_MEASUREMENT_ID,
    /** Days the shop keeps personal data (the privacy policy states the same numbers). */
    retentionDays: { ...RETENTION_DAYS, contactMessages: env.MESSAGE_RETENTION_DAYS },
    sessionSecret: env.SESSION_SECRET,
    catalogDir: path.resolve(env.CATALOG_DIR),
    s3:
      env.S3_ENDPOINT && env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: env.S3_ENDPOINT,
            bucket: env.S3_BUCKET,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            region: env.S3_REGION,
          }
        : undefined,
    trustProxy: env.TRUST_PROXY,
    /** Enables `GET /metrics` for `Authorization: Bearer` with this token. */
    metricsToken: env.METRICS_TOKEN,
    rateLimits: env.RATE_LIMITS === 'on',
    /** Where the shop's calendar days are: a discount's start and end dates are days there. */
    shopTimeZone: env.SHOP_TIME_ZONE,
    /** Per-form limits. Generous for people (and a shop's own e2e suite), tight for scripts. */
    limits: {
      signInFailures: { max: 5, windowSeconds: 60 },
      signInPerIp: { max: 50, windowSeconds: 600 },
      signInPerAccount: { max: 20, windowSeconds: 900 },
      /** Two-step codes (and the password asked again to turn it off): 5 failures per account in 15 minutes. */
      codeFailures: { max: 5, windowSeconds: 900 },
      /** Passkey sign-in challenges handed out per IP (the sign-in page asks for one per visit). */
      passkeyOptionsPerIp: { max: 300, windowSeconds: 600 },
      registerPerIp: { max: 30, windowSeconds: 3600 },
      registerPerEmail: { max: 5, windowSeconds: 3600 },
      forgotPerIp: { max: 30, windowSeconds: 3600 },
      forgotPerEmail: { max: 5, windowSeconds: 3600 },
      resetPerIp: { max: 20, windowSeconds: 600 },
      verificationResendSeconds: 60,
      contactPerIp: { max: 20, windowSeconds: 3600 },
      subscribePerIp: { max: 30, windowSeconds: 3600 },
    },
    /** How often expired counters, sessions and links are deleted (one instance at a time). */
    housekeepingIntervalMs: 60_000,
    logLevel: env.LOG_LEVEL,
    /** The seller the shop's own (sandbox) invoices and credit notes name; the address's lines split at `\n` or `;`. */
    seller: {
      name: env.SELLER_NAME,
      address: (env.SELLER_ADDRESS ?? '')
        .split(/\\n|\n|;/)
        .map((line) => line.trim())
        .filter(Boolean),
      taxId: env.SELLER_TAX_ID ?? null,
    },
    /**
     * Socket limits, so slow or silent clients cannot hold connections open forever. A request
     * (headers and body, at most 1 MB) must arrive within 30 s; the answer is not limited, so a large
     * download on a slow line is never cut. Keep-alive outlasts the 60 s idle timeout of common load
     * balancers (a shorter one makes them reuse a connection the server is closing). Node checks the
     * timeouts every checkIntervalMs. The cap bounds memory and file descriptors under a flood of
     * sockets, far above what browsers need (about 6 connections each).
     */
    connections: {
      headersTimeoutMs: 15_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      checkIntervalMs: 1_000,
      maxConnections: 2_000,
    },
  };
}

/** Reads the environment once; every problem is listed, not just the first. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  if (env.NODE_ENV === 'production') {
    if (!env.SESSION_SECRET) problems.push('SESSION_SECRET: required when NODE_ENV=production');
    if (env.PUBLIC_URL && !env.PUBLIC_URL.startsWith('https://'))
      problems.push('PUBLIC_URL: must be https when NODE_ENV=production');
    if (!env.PUBLIC_URL) problems.push('PUBLIC_URL: required when NODE_ENV=production');
    if (env.PAYMENT_PROVIDER === undefined)
      problems.push('PAYMENT_PROVIDER: set it to "paddle" (or "sandbox" explicitly) when NODE_ENV=production');
  }
  if (env.PAYMENT_PROVIDER === 'paddle') {
    if (!env.PADDLE_CLIENT_TOKEN) problems.push('PADDLE_CLIENT_TOKEN: required when PAYMENT_PROVIDER=paddle');
    if (!env.PADDLE_WEBHOOK_SECRET) problems.push('PADDLE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER=paddle');
  }
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET))
    problems.push('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither');
  const github = [env.GITHUB_TOKEN, env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET];
  if (github.some(Boolean) && !github.every(Boolean))
    problems.push('GITHUB_TOKEN, GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET: set all three or none');
  if (env.NODE_ENV === 'production' && github.every(Boolean)) {
    for (const [name, url] of [
      ['GITHUB_API_URL', env.GITHUB_API_URL],
      ['GITHUB_WEB_URL', env.GITHUB_WEB_URL],
    ] as const)
      if (!url.startsWith('https://')) problems.push(`${name}: must be https when NODE_ENV=production`);
  }
  const s3 = [env.S3_ENDPOINT, env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  if (s3.some(Boolean) && !s3.every(Boolean))
    problems.push('S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set all four or none');
  if (problems.length > 0) throw new ConfigError(problems);
  return toConfig(env);
}

/**
 * The cookie-signing secret: SESSION_SECRET, or one generated into DATA_DIR on the first start
 * (so a laptop install needs no set-up and keeps its sessions across restarts).
 */
export function resolveSessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(config.dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    } catch (error) {
      // Another process sharing DATA_DIR wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return readFileSync(file, 'utf8').trim();
  }
}
