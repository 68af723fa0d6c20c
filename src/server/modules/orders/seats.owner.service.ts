import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { OwnerTeam } from '../../../common/schemas/owner.ts';
import { orderItems, orders, teamSeats } from '../../db/schema/orders.ts';
import { AppError } from '../../http/errors.ts';
import {
  type Db,
  endSeat,
  liveLine,
  OPEN,
  openSeats,
  type SeatRow,
  seatAnswer,
  seatSource,
  type Tx,
} from './seat-rows.ts';

/** What the owner console reads and changes of Team seats. */

/** An owner frees a seat (a member removed, an invitation cancelled): what it was, for the activity log. */
export async function freeSeat(tx: Tx, seatId: number): Promise<{ seat: SeatRow; orderId: string; jobs: number }> {
  const [found] = await tx.select({ itemId: teamSeats.orderItemId }).from(teamSeats).where(eq(teamSeats.id, seatId));
  if (!found) throw new AppError('not_found', `No seat ${seatId}.`);
  const [line] = await tx
    .select({ kitId: orderItems.kitId, orderId: orders.publicId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(eq(orderItems.id, found.itemId))
    .for('update', { of: orderItems });
  const [seat] = await tx
    .select()
    .from(teamSeats)
    .where(and(eq(teamSeats.id, seatId), inArray(teamSeats.status, [...OPEN])))
    .for('update');
  if (!seat || !line) throw new AppError('conflict', `Seat ${seatId} is free already.`);
  return { seat, orderId: line.orderId, jobs: await endSeat(tx, seat, line.kitId) };
}

/**
 * A buyer's Team lines (or those of one order) that still give seats, each with its open seats:
 * the owner console's customer and order pages.
 */
export async function teamsOf(db: Db, which: { buyerId: number } | { orderPublicId: string }): Promise<OwnerTeam[]> {
  const lines = await db
    .select({ id: orderItems.id, orderId: orders.publicId, title: orderItems.title, seats: orderItems.seats })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(liveLine, 'buyerId' in which ? eq(orders.userId, which.buyerId) : eq(orders.publicId, which.orderPublicId)),
    )
    .orderBy(orderItems.id);
  const open = await openSeats(
    db,
    lines.map((l) => l.id),
  );
  return lines.map((line) => {
    const members = open.filter((row) => row.seat.orderItemId === line.id).map(seatAnswer);
    return {
      order_id: line.orderId,
      title: line.title,
      seats: line.seats,
      used: 1 + members.length,
      members: members.map((m) => ({ ...m, id: m.id!, status: m.status === 'active' ? 'active' : 'pending' })),
    };
  });
}

/** The Team orders whose seats a member holds, by the seat entitlement's source (`seat:<id>`). */
export async function seatOrdersOf(db: Db, memberId: number): Promise<Map<string, string>> {
  const rows = await db
    .select({ seatId: teamSeats.id, orderId: orders.publicId })
    .from(teamSeats)
    .innerJoin(orderItems, eq(orderItems.id, teamSeats.orderItemId))
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(eq(teamSeats.userId, memberId));
  return new Map(rows.map((r) => [seatSource(r.seatId), r.orderId]));
}

/**
 * Everyone who held or holds a seat of an order's Team lines, with the kit and the source of the
 * seat's entitlement (`seat:<id>`): whose licence keys the owner's order page lists besides the buyer's.
 */
export async function seatHoldersOfOrder(
  db: Db,
  orderPublicId: string,
): Promise<{ userId: number; kitId: number; source: string }[]> {
  const rows = await db
    .select({ seatId: teamSeats.id, userId: teamSeats.userId, kitId: orderItems.kitId })
    .from(teamSeats)
    .innerJoin(orderItems, eq(orderItems.id, teamSeats.orderItemId))
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orders.publicId, orderPublicId), isNotNull(teamSeats.userId)))
    .orderBy(teamSeats.id);
  return rows.flatMap((row) =>
    row.userId === null ? [] : [{ userId: row.userId, kitId: row.kitId, source: seatSource(row.seatId) }],
  );
}
