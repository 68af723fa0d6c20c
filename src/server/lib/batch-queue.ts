/**
 * Work items applied in groups as they arrive, for work bound by round trips (one transaction for
 * a group instead of one per item). A lone item starts at once; while `maxInFlight` groups are
 * being applied, the items that arrive meanwhile wait and form the next group (at most `maxBatch`
 * each). A group that fails is tried again one item at a time, so one bad item never fails the
 * others. `applyGroup` answers one result per item, in the items' order.
 */
export function createBatchQueue<T, R>(
  applyGroup: (items: T[]) => Promise<R[]>,
  limits = { maxBatch: 50, maxInFlight: 2 },
): { push(item: T): Promise<R> } {
  type Waiting = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void };
  const waiting: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;

  const settle = (group: Waiting[]) =>
    applyGroup(group.map((w) => w.item)).then((results) => {
      for (const [i, w] of group.entries()) w.resolve(results[i]!);
    });

  const run = async (group: Waiting[]) => {
    try {
      await settle(group);
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      await Promise.all(group.map((w) => settle([w]).catch(w.reject)));
    }
  };
  const pump = () => {
    scheduled = false;
    while (waiting.length > 0 && inFlight < limits.maxInFlight) {
      inFlight++;
      void run(waiting.splice(0, limits.maxBatch)).finally(() => {
        inFlight--;
        pump();
      });
    }
  };
  return {
    push(item: T): Promise<R> {
      return new Promise((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(pump);
        }
      });
    },
  };
}
