import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The state of V8's feedback for the object literal in `process.nextTick`, in a process that (with
 * tick-shape.ts loaded or not) queues ticks, lets a full collection run while none is queued (as an
 * idle server does), and queues ticks again. `%DebugPrint` lists the feedback slots of the literal's
 * computed keys as `DefineKeyedOwnPropertyInLiteral MONOMORPHIC` or `MEGAMORPHIC`.
 */
function literalStatesAfterIdleCollection(keep: boolean): string[] {
  const script = `
    ${keep ? "await import('./src/server/lib/tick-shape.ts');" : ''}
    const tick = () => new Promise((resolve) => process.nextTick(resolve));
    for (let i = 0; i < 1000; i++) await tick();
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
    gc();
    for (let i = 0; i < 1000; i++) await tick();
    %DebugPrint(process.nextTick);
  `;
  // V8 prints with C's stdio, which drops what a non-blocking pipe refuses: into a file instead.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tick-shape-'));
  const printed = path.join(dir, 'stdout');
  const out = openSync(printed, 'w');
  try {
    const run = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8', stdio: ['ignore', out, 'pipe'] },
    );
    expect(run.status, run.stderr).toBe(0);
    const states = readFileSync(printed, 'utf8').matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g);
    return [...states].map((match) => match[1]!);
  } finally {
    closeSync(out);
    rmSync(dir, { recursive: true, force: true });
  }
}

// Measured: Node 20 and 22 turn the literal megamorphic after such a collection; Node 24 does not.
const affected = Number(process.versions.node.split('.')[0]) < 24;

describe("process.nextTick's queue entries after a full collection while none is queued", () => {
  it.skipIf(!affected)('turn megamorphic without tick-shape.ts (what it prevents)', () => {
    const states = literalStatesAfterIdleCollection(false);
    expect(states.length).toBeGreaterThanOrEqual(2);
    expect(states).toContain('MEGAMORPHIC');
  });

  it('stay monomorphic with tick-shape.ts loaded', () => {
    const states = literalStatesAfterIdleCollection(true);
    expect(states.length).toBeGreaterThanOrEqual(2);
    expect(states.every((state) => state === 'MONOMORPHIC')).toBe(true);
  });
});

describe('tick-shape.ts', () => {
  it('is still needed: the oldest Node the shop supports is older than 24, whose literal stays monomorphic', () => {
    const packageJson = path.resolve(import.meta.dirname, '../../../package.json');
    const engines: string = JSON.parse(readFileSync(packageJson, 'utf8')).engines.node;
    const oldest = Number(/\d+/.exec(engines)?.[0]);
    expect(oldest, 'tick-shape.ts has expired: delete it and its import in main.ts').toBeLessThan(24);
  });
});
