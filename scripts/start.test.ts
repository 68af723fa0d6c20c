import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_ARGS } from './start.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** Allocates 200 MB in small objects, a tenth of them kept a while, and prints the young generation's size. */
const CHURN = `
const v8 = require('node:v8');
const kept = [];
for (let i = 0; i < 2e6; i++) {
  const item = { i, text: 'item ' + i };
  if (i % 10 === 0) kept.push(item);
  if (kept.length > 20000) kept.splice(0, 10000);
}
const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
console.log(young.space_size);
`;

describe('the server’s Node flags', () => {
  it('are what `npm start` passes before its script', () => {
    const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
    expect(scripts.start).toBe(`node ${SERVER_NODE_ARGS.join(' ')} scripts/start.mjs`);
  });

  it('keep the young generation at 2 x 4 MiB through an allocation churn', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [...SERVER_NODE_ARGS, '-e', CHURN], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(Number(stdout)).toBeGreaterThan(0);
    expect(Number(stdout)).toBeLessThanOrEqual(2 * 4 * 1024 * 1024);
  });
});
