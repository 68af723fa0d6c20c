import { sql } from 'drizzle-orm';
import type { Database, Reader } from '../db/open.ts';

/** One kind of expired row to delete; answers how many it deleted. */
export type Chore = { name: string; run: (db: Reader) => Promise<number> };
type Log = { info: (msg: string) => void; warn: (obj: object, msg: string) => void };

/** Any fixed number: every instance asks for the same lock, so one sweeps while the others skip. */
const HOUSEKEEPING_LOCK = 7_318_220_915;

/**
 * Runs every chore now and then, one instance at a time: a round holds a transaction-level
 * advisory lock, and an instance that cannot take it skips its round. A failing round is logged
 * and the next one tries again.
 */
export function startHousekeeping(db: Database, chores: Chore[], log: Log, intervalMs: number) {
  let running: Promise<void> | undefined;
  const round = async () => {
    await db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ locked: boolean }>(
        sql`SELECT pg_try_advisory_xact_lock(${HOUSEKEEPING_LOCK}) AS locked`,
      );
      if (!rows[0]?.locked) return;
      const swept: string[] = [];
      for (const chore of chores) {
        const count = await chore.run(tx);
        if (count > 0) swept.push(`${count} ${chore.name}`);
      }
      if (swept.length > 0) log.info(`housekeeping: deleted ${swept.join(', ')}`);
    });
  };
  const timer = setInterval(() => {
    if (running) return;
    running = round()
      .catch((error: unknown) => log.warn({ err: error }, 'housekeeping round failed'))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** How many rows a DELETE through `db.execute` removed. */
export const deletedRows = (result: { rowCount?: number | null }) => result.rowCount ?? 0;
