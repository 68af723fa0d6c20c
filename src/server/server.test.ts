import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, FIXTURE_CATALOG, PRODUCTION_ENV, TEST_TEMPLATE } from '../../tests/setup/test-app.ts';
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';

/** Starts the real server on a test database and returns what it logged at warn level and above. */
async function warningsAtStart(env: Record<string, string>): Promise<string[]> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-start-'));
  const lines: string[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)).msg);
        done();
      },
    }),
  );
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    CATALOG_DIR: FIXTURE_CATALOG,
    PORT: '0',
    ...env,
  });
  try {
    const server = await startServer(config, { logger, template: () => TEST_TEMPLATE });
    await server.close();
    return lines;
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('start', () => {
  it('warns when a production shop takes sandbox payments', async () => {
    const warnings = await warningsAtStart({ ...PRODUCTION_ENV, PAYMENT_PROVIDER: 'sandbox' });
    expect(warnings).toEqual([
      expect.stringMatching(/PAYMENT_PROVIDER=sandbox.*NODE_ENV=production.*no real charges/s),
    ]);
  });

  it('says nothing of it outside production', async () => {
    expect(await warningsAtStart({ PAYMENT_PROVIDER: 'sandbox' })).toEqual([]);
  });
});
