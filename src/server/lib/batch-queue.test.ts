import { describe, expect, it } from 'vitest';
import { createBatchQueue } from './batch-queue.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A group applier whose calls wait until the test lets them finish. */
function gate() {
  const groups: number[][] = [];
  const release: (() => void)[] = [];
  const apply = (items: number[]) => {
    groups.push(items);
    return new Promise<number[]>((resolve, reject) => {
      release.push(() => (items.includes(13) ? reject(new Error('bad item')) : resolve(items.map((n) => n * 10))));
    });
  };
  const releaseAll = async () => {
    while (release.length > 0) {
      release.shift()!();
      await tick();
    }
  };
  return { groups, apply, releaseAll };
}

describe('createBatchQueue', () => {
  it('starts a lone item at once and groups what arrives while the groups in flight are busy', async () => {
    const g = gate();
    const queue = createBatchQueue(g.apply, { maxBatch: 50, maxInFlight: 1 });
    const first = queue.push(1);
    await tick();
    expect(g.groups).toEqual([[1]]);
    const later = [queue.push(2), queue.push(3), queue.push(4)];
    await tick();
    expect(g.groups).toEqual([[1]]);
    await g.releaseAll();
    expect(g.groups).toEqual([[1], [2, 3, 4]]);
    expect(await Promise.all([first, ...later])).toEqual([10, 20, 30, 40]);
  });

  it('keeps groups to maxBatch and runs at most maxInFlight at once', async () => {
    const g = gate();
    const queue = createBatchQueue(g.apply, { maxBatch: 2, maxInFlight: 2 });
    const results = Promise.all([1, 2, 3, 4, 5].map((n) => queue.push(n)));
    await tick();
    expect(g.groups).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await g.releaseAll();
    expect(g.groups).toEqual([[1, 2], [3, 4], [5]]);
    expect(await results).toEqual([10, 20, 30, 40, 50]);
  });

  it('tries a failed group again one item at a time, so only the bad item fails', async () => {
    const g = gate();
    const queue = createBatchQueue(g.apply, { maxBatch: 50, maxInFlight: 1 });
    const settled = Promise.allSettled([12, 13, 14].map((n) => queue.push(n)));
    await tick();
    await g.releaseAll();
    expect(g.groups).toEqual([[12, 13, 14], [12], [13], [14]]);
    const outcomes = await settled;
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 120 });
  });
});
