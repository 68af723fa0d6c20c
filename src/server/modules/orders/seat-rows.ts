import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Seat } from '../../../common/schemas/seats.ts';
import type { Database } from '../../db/open.ts';
import { orderItems, orders, teamSeats } from '../../db/schema/orders.ts';
import { type Contact, contactSql } from '../accounts/accounts.service.ts';
import { queueRepositoryAccessSync } from '../github/github.service.ts';
import { revokeEntitlementsFrom } from '../library/library.service.ts';

/** What the seats' services share: the seat rows, how a line gives seats, and how a seat ends. */

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** The database or a transaction. */
export type Db = Pick<Database, 'select' | 'update' | 'execute'>;
export type SeatRow = typeof teamSeats.$inferSelect;
export const seatSource = (seatId: number) => `seat:${seatId}`;
export const OPEN = ['pending', 'active'] as const;

/** A line that still gives its seats: paid, not refunded in full, not lapsed. */
export const liveLine = and(
  inArray(orders.status, ['paid', 'partially_refunded']),
  isNull(orderItems.refundedAt),
  isNull(orderItems.lapsedAt),
  sql`${orderItems.licenceId} IS NOT NULL`,
  sql`${orderItems.seats} > 1`,
)!;

/** A line's pending and active seats, with each member's name, oldest first. */
export async function openSeats(db: Db, itemIds: number[]) {
  if (itemIds.length === 0) return [];
  return db
    .select({
      seat: teamSeats,
      member: sql<Contact | null>`${contactSql(sql`${teamSeats.userId}`)}`,
    })
    .from(teamSeats)
    .where(and(inArray(teamSeats.orderItemId, itemIds), inArray(teamSeats.status, [...OPEN])))
    .orderBy(teamSeats.id);
}

export const seatAnswer = ({ seat, member }: { seat: SeatRow; member: Contact | null }): Seat => ({
  id: seat.id,
  status: seat.status === 'active' ? 'active' : 'pending',
  name: member?.name ?? null,
  email: member?.email ?? seat.email,
  invited_at: seat.invitedAt.toISOString(),
  accepted_at: seat.acceptedAt?.toISOString() ?? null,
});

/**
 * Ends a seat in the caller's transaction (its line locked): an invitation is cancelled, a member
 * removed, their seat's entitlement revoked and their repository access brought in line. Answers
 * the repository jobs queued.
 */
export async function endSeat(tx: Db, seat: SeatRow, kitId: number): Promise<number> {
  if (seat.status === 'pending') {
    await tx.update(teamSeats).set({ status: 'cancelled', endedAt: sql`now()` }).where(eq(teamSeats.id, seat.id));
    return 0;
  }
  await tx.update(teamSeats).set({ status: 'removed', endedAt: sql`now()` }).where(eq(teamSeats.id, seat.id));
  if (seat.userId === null) return 0;
  await revokeEntitlementsFrom(tx, [{ userId: seat.userId, kitId, source: seatSource(seat.id) }]);
  return queueRepositoryAccessSync(tx, seat.userId);
}
