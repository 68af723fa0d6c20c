import { sql } from 'drizzle-orm';
import type { Database, Reader } from '../db/open.ts';
import { deletedRows } from '../lib/housekeeping.ts';
import { AppError } from './errors.ts';

export type Limit = { max: number; windowSeconds: number };

/**
 * Fixed-window counters in PostgreSQL, shared by every instance. `hit` counts one event and
 * answers how many the window holds, in one atomic upsert: parallel requests each see their own
 * count, so none slips past a limit.
 */
export function createRateLimiter(db: Database, enabled: boolean) {
  async function hit(key: string, limit: Limit): Promise<{ count: number; retryAfter: number }> {
    const { rows } = await db.execute<{ count: number; retry_after: number }>(sql`
      INSERT INTO rate_limits (key, count, reset_at) VALUES (${key}, 1, now() + make_interval(secs => ${limit.windowSeconds}))
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limits.reset_at <= now() THEN 1 ELSE rate_limits.count + 1 END,
        reset_at = CASE WHEN rate_limits.reset_at <= now() THEN excluded.reset_at ELSE rate_limits.reset_at END
      RETURNING count, ceil(extract(epoch FROM reset_at - now()))::int AS retry_after`);
    return { count: rows[0]!.count, retryAfter: Math.max(1, rows[0]!.retry_after) };
  }
  const tooMany = (retryAfter: number, what: string) =>
    new AppError('too_many_requests', `Too many ${what}. Please try again in ${describeWait(retryAfter)}.`);
  return {
    enabled,
    /** Counts one request; throws 429 once the window holds more than `limit.max`. */
    async consume(key: string, limit: Limit, what: string): Promise<void> {
      if (!enabled) return;
      const { count, retryAfter } = await hit(key, limit);
      if (count > limit.max) throw tooMany(retryAfter, what);
    },
    /** Counts one and answers the window's count, refusing nothing: the caller decides. */
    async count(key: string, limit: Limit): Promise<{ count: number; retryAfter: number }> {
      return enabled ? hit(key, limit) : { count: 0, retryAfter: 0 };
    },
    tooMany,
    /** Takes back one counted event (an attempt that turned out not to be a failure). */
    async giveBack(key: string): Promise<void> {
      if (enabled) await db.execute(sql`UPDATE rate_limits SET count = greatest(count - 1, 0) WHERE key = ${key}`);
    },
    async reset(key: string): Promise<void> {
      await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * Deletes counters whose window has ended (housekeeping runs it every minute), so the table
 * holds only live windows: anonymous traffic cannot grow it without end.
 */
export async function sweepExpiredCounters(db: Reader): Promise<number> {
  return deletedRows(await db.execute(sql`DELETE FROM rate_limits WHERE reset_at <= now()`));
}

/**
 * The part of a client address that per-IP limits count: an IPv4 address as it is, an IPv6
 * address by its /64 (one subscriber commonly holds a whole /64 and can pick any address in it).
 */
export function ipKey(ip: string): string {
  const address = ip.replace(/%.*$/, '').toLowerCase();
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const full = [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${full
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

export function describeWait(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
