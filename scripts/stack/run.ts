import { startStack } from './stack.ts';

/**
 * `npm run stack`: nginx on STACK_PORT (default 8080) in front of two instances under /shop, on
 * DATABASE_URL (or an embedded PostgreSQL started once for both) and one local S3 bucket.
 * Ctrl-C stops everything.
 */
const port = Number(process.env.STACK_PORT ?? 8080);
const stack = await startStack({
  port,
  basePath: process.env.STACK_BASE_PATH ?? '/shop',
  databaseUrl: process.env.DATABASE_URL || undefined,
  env: process.env.METRICS_TOKEN ? { METRICS_TOKEN: process.env.METRICS_TOKEN } : {},
});
console.log(
  `Kitshop stack: nginx at ${stack.url}/ in front of ${stack.instances.map((i) => `127.0.0.1:${i.port}`).join(' and ')}`,
);
console.log(
  `  database ${new URL(stack.databaseUrl).host}, S3 bucket ${stack.s3.bucket} at ${stack.s3.endpoint}; Ctrl-C stops it`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
