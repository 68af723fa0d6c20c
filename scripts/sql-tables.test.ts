import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { plantTree } from './test-tree.ts';

/**
 * The raw-SQL half of table ownership (`npm run lint:sql`, scripts/lint-sql-tables.mjs) runs on a
 * small tree with one deliberate violation per probe, on the same tree without them, and on the
 * repository itself.
 */
const root = path.resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'kitshop-sql-tables-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const tree = (name: string, files: Record<string, string>) => plantTree(tmp, name, files);

async function lintSql(dir: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'scripts/lint-sql-tables.mjs')], {
      cwd: dir,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return `FAILED\n${stdout}${stderr}`;
  }
}

/** An interpolation as source text: `${code}`. */
const slot = (code: string) => ['$', '{', code, '}'].join('');
const table = (name: string) => `pgTable('${name}', { id: serial('id') })`;
const allowed = {
  'src/server/db/schema/columns.ts': "export const createdAt = () => timestamp('created_at');\n",
  'src/server/db/schema/index.ts': "export * from './orders.ts';\n",
  'src/server/db/schema/orders.ts': `export const orders = ${table('orders')};\nexport const orderItems = pgTable(\n  'order_items',\n  {},\n);\n`,
  'src/server/db/schema/messages.ts': `export const subscribers = ${table('subscribers')};\n`,
  'src/server/db/schema/accounts.ts': `export const sessions = ${table('sessions')};\n`,
  'src/server/db/schema/mail.ts': `export const mailOutbox = ${table('mail_outbox')};\n`,
  'src/server/modules/orders/orders.service.ts':
    'export const paid = (db) => db.execute(sql`SELECT o.id FROM orders o JOIN order_items i ON i.order_id = o.id`);\n',
  'src/server/modules/messages/messages.service.ts': [
    '// Reads the orders of nobody: FROM orders in a comment is no SQL.',
    "export const label = 'Pick a kit from orders';",
    'export const list = (db) =>',
    `  db.execute(sql\`WITH orders AS (SELECT 1 AS id) SELECT s.id FROM subscribers s, orders ${slot('fragment()')}\`);`,
    '',
  ].join('\n'),
  'src/server/modules/accounts/accounts.service.ts': '',
  'src/server/integrations/mail/outbox.ts':
    'export const depth = (db) => db.execute(sql`SELECT count(*) FROM mail_outbox`);\n',
  'src/server/http/session.ts':
    'export const sweep = (db) => db.execute(sql`DELETE FROM sessions WHERE expires_at <= now()`);\n',
  'src/server/modules/orders/orders.routes.test.ts':
    "await pool.query('INSERT INTO subscribers (email) VALUES ($1)', ['a@example.com']);\n",
  'src/server/seed.ts': "await client.query('INSERT INTO subscribers (email) SELECT id FROM orders');\n",
};

describe('raw SQL ownership (lint:sql)', () => {
  it('passes a tree whose SQL names only its own tables (comments, CTEs, tests and composition aside)', async () => {
    expect(await lintSql(tree('clean', allowed))).toContain('no raw-SQL table ownership violations found');
  });

  it('passes the repository', async () => {
    expect(await lintSql(root)).toContain('no raw-SQL table ownership violations found');
  });

  it('runs in npm run lint', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(scripts.lint).toContain('npm run lint:sql');
    expect(scripts['lint:sql']).toBe('node scripts/lint-sql-tables.mjs');
  });

  it.each([
    [
      'a sql template reading FROM another feature’s table',
      'src/server/modules/messages/x.ts',
      `export const probe = (db) =>\n  db.execute(sql\`SELECT id\n    FROM orders WHERE user_id = ${slot('1')}\`);\n`,
      { line: 3, table: 'orders', owner: 'modules/orders', reacher: 'modules/messages' },
    ],
    [
      'a JOIN of another feature’s table',
      'src/server/modules/messages/x.ts',
      'export const probe = (db) => db.execute(sql`SELECT s.id FROM subscribers s JOIN order_items i ON i.id = s.id`);\n',
      { line: 1, table: 'order_items', owner: 'modules/orders', reacher: 'modules/messages' },
    ],
    [
      'a string given to execute',
      'src/server/modules/messages/x.ts',
      "export const probe = (db) => db.execute('UPDATE orders SET status = $1');\n",
      { line: 1, table: 'orders', owner: 'modules/orders', reacher: 'modules/messages' },
    ],
    [
      'a constant given to query',
      'src/server/modules/orders/x.ts',
      "const TEXT = 'DELETE FROM subscribers WHERE id = $1';\nexport const probe = (pool) => pool.query(TEXT, [1]);\n",
      { line: 1, table: 'subscribers', owner: 'modules/messages', reacher: 'modules/orders' },
    ],
    [
      'a statement in a string anywhere',
      'src/server/modules/orders/x.ts',
      'export const PROBE = `\n  INSERT INTO mail_outbox ("to") VALUES ($1)`;\n',
      { line: 2, table: 'mail_outbox', owner: 'integrations/mail', reacher: 'modules/orders' },
    ],
    [
      'a cross-cutting folder reading a feature’s table',
      'src/server/lib/x.ts',
      'export const probe = (db) => db.execute(sql`SELECT 1 FROM public."orders" LIMIT 1`);\n',
      { line: 1, table: 'orders', owner: 'modules/orders', reacher: 'lib' },
    ],
    [
      'an allowed file naming a table outside its allowance',
      'src/server/http/session.ts',
      'export const probe = (db) => db.execute(sql`SELECT 1 FROM sessions, orders`);\n',
      { line: 1, table: 'orders', owner: 'modules/orders', reacher: 'http' },
    ],
  ])('fails lint for %s', async (_name, file, text, expected) => {
    const output = await lintSql(
      tree(file.replaceAll('/', '_') + expected.line + expected.table, { ...allowed, [file]: text }),
    );
    expect(output).toContain('FAILED');
    expect(output).toContain(
      `error sql-own-tables-only: ${file}:${expected.line} names ${expected.table} in raw SQL; ${expected.owner} owns it, so ${expected.reacher} asks`,
    );
    expect(output).toContain('x 1 raw-SQL table ownership violation\n');
  });

  it('fails lint for a schema file no feature or integration owns', async () => {
    const output = await lintSql(
      tree('unowned', { ...allowed, 'src/server/db/schema/billing.ts': `export const t = ${table('invoices')};\n` }),
    );
    expect(output).toContain('FAILED');
    expect(output).toContain('src/server/db/schema/billing.ts declares tables but no modules/billing/');
  });
});
