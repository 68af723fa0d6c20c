import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Seat, SeatsResponse } from '../../../common/schemas/seats.ts';
import type { Database } from '../../db/open.ts';
import { orderItems, orders, teamSeats } from '../../db/schema/orders.ts';
import { AppError } from '../../http/errors.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { type MailContext, seatInvitationMail } from '../../integrations/mail/templates.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { type Contact, contactSql } from '../accounts/accounts.service.ts';
import { findKitGuide, findKitReleases, findLicence, licenceActivationLimits } from '../catalog/catalog.service.ts';
import { queueRepositoryAccessSync } from '../github/github.service.ts';
import { grantSql, ownedKitIds } from '../library/library.service.ts';
import { issueLicenceKeys } from '../licences/licences.service.ts';
import { type Db, endSeat, liveLine, OPEN, openSeats, seatAnswer, seatSource, type Tx } from './seat-rows.ts';

/**
 * Team seats: the buyer of a licence tier with more than one seat holds the first and invites
 * colleagues to the others. A seat holder owns the kit through an entitlement whose source is
 * `seat:<seat id>`, granted when they accept and revoked when the seat is freed or the Team line
 * refunded. Every change that counts seats locks the Team line's row first, then its seats, so two
 * invitations at once never take more seats than the line has.
 */

export type SeatDeps = {
  db: Database;
  mail: MailContext;
  mailQueued: () => void;
  /** Called after repository grants or revokes were queued (GitHub delivery on), so they start now. */
  githubQueued?: () => void;
  /** Seals the licence key a member gets with their seat. */
  licenceBox: SecretBox;
};

type TeamLine = {
  id: number;
  kitId: number;
  licenceId: number;
  seats: number;
  paidAt: Date | null;
  buyerId: number;
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const teamLineColumns = {
  id: orderItems.id,
  kitId: orderItems.kitId,
  licenceId: sql<number>`${orderItems.licenceId}`,
  seats: orderItems.seats,
  paidAt: orders.paidAt,
  buyerId: orders.userId,
};

/** The buyer's newest Team line of a kit, locked when asked (before its seats are counted). */
async function teamLineOf(db: Db, buyerId: number, kitId: number, lock = false): Promise<TeamLine | undefined> {
  const query = db
    .select(teamLineColumns)
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orders.userId, buyerId), eq(orderItems.kitId, kitId), liveLine))
    .orderBy(desc(orderItems.id))
    .limit(1);
  const [line] = lock ? await query.for('update', { of: orderItems }) : await query;
  return line;
}

async function lockLine(tx: Tx, itemId: number): Promise<TeamLine | undefined> {
  const [line] = await tx
    .select(teamLineColumns)
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.id, itemId), liveLine))
    .for('update', { of: orderItems });
  return line;
}

async function contactOf(db: Db, userId: number): Promise<Contact> {
  const { rows } = await db.execute<{ contact: Contact | null }>(sql`SELECT ${contactSql(sql`${userId}`)} AS contact`);
  const contact = rows[0]?.contact;
  if (!contact) throw new AppError('unauthorized', 'Please sign in to continue.');
  return contact;
}

async function kitBySef(db: Db, sefId: string) {
  const kit = await findKitGuide(db, sefId);
  if (!kit) throw new AppError('not_found', 'We could not find that kit.');
  return kit;
}

const noTeam = () => new AppError('not_found', 'You have no Team licence of this kit.');

/** What the item page shows of seats: the buyer's Team, or who manages the member's seat. */
export async function seatsOfKit(db: Database, userId: number, sefId: string): Promise<SeatsResponse> {
  const kit = await kitBySef(db, sefId);
  const [line, managedBy] = await Promise.all([teamLineOf(db, userId, kit.id), seatManagerOf(db, userId, kit.id)]);
  if (!line) return { team: null, managed_by: managedBy };
  const [open, buyer, licence] = await Promise.all([
    openSeats(db, [line.id]),
    contactOf(db, userId),
    findLicence(db, line.licenceId),
  ]);
  const own: Seat = {
    id: null,
    status: 'owner',
    name: buyer.name,
    email: buyer.email,
    invited_at: (line.paidAt ?? new Date()).toISOString(),
    accepted_at: (line.paidAt ?? new Date()).toISOString(),
  };
  return {
    team: {
      licence: licence?.name ?? 'Team',
      seats: line.seats,
      used: 1 + open.length,
      members: [own, ...open.map(seatAnswer)],
    },
    managed_by: managedBy,
  };
}

/** The buyer who manages a member's seat of this kit, if the member owns it through one. */
async function seatManagerOf(db: Database, userId: number, kitId: number) {
  const [row] = await db
    .select({
      manager: sql<Contact | null>`${contactSql(sql`${orders.userId}`)}`,
      licenceId: orderItems.licenceId,
    })
    .from(teamSeats)
    .innerJoin(orderItems, eq(orderItems.id, teamSeats.orderItemId))
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(teamSeats.userId, userId), eq(teamSeats.status, 'active'), eq(orderItems.kitId, kitId)))
    .orderBy(desc(teamSeats.id))
    .limit(1);
  if (!row?.manager) return null;
  const licence = row.licenceId === null ? undefined : await findLicence(db, row.licenceId);
  return { name: row.manager.name, email: row.manager.email, licence: licence?.name ?? 'Team' };
}

/**
 * Invites an address to a free seat of the buyer's Team licence and mails it a link. Refused
 * (nothing changes) when every seat is taken or invited, when the address has a seat or an
 * invitation of this licence already, or is the buyer's own.
 */
export async function inviteToSeat(deps: SeatDeps, buyerId: number, sefId: string, email: string) {
  const address = email.trim();
  const emailKey = address.toLowerCase();
  const token = randomBytes(24).toString('base64url');
  await deps.db.transaction(async (tx) => {
    const kit = await kitBySef(tx, sefId);
    const line = await teamLineOf(tx, buyerId, kit.id, true);
    if (!line) throw noTeam();
    const buyer = await contactOf(tx, buyerId);
    if (buyer.email.toLowerCase() === emailKey)
      throw new AppError('conflict', 'email: That is your own address: you hold the first seat.');
    const open = await openSeats(tx, [line.id]);
    if (open.some(({ seat }) => seat.emailKey === emailKey))
      throw new AppError('conflict', `email: ${address} has a seat or an invitation of this licence already.`);
    if (1 + open.length >= line.seats)
      throw new AppError(
        'conflict',
        `All ${line.seats} seats are taken: remove a member or cancel an invitation to invite someone else.`,
      );
    await tx.insert(teamSeats).values({ orderItemId: line.id, email: address, emailKey, tokenHash: hashToken(token) });
    await enqueueMail(
      tx,
      seatInvitationMail(deps.mail, address, {
        kitTitle: kit.title,
        managerName: buyer.name,
        managerEmail: buyer.email,
        token,
      }),
    );
  });
  deps.mailQueued();
}

/** A buyer's seat of this kit's Team line, its line locked first. */
async function lockedSeatOfBuyer(tx: Tx, buyerId: number, sefId: string, seatId: number) {
  const kit = await kitBySef(tx, sefId);
  const line = await teamLineOf(tx, buyerId, kit.id, true);
  if (!line) throw noTeam();
  const [seat] = await tx
    .select()
    .from(teamSeats)
    .where(and(eq(teamSeats.id, seatId), eq(teamSeats.orderItemId, line.id), inArray(teamSeats.status, [...OPEN])))
    .for('update');
  if (!seat) throw new AppError('not_found', 'That seat is not taken or invited any more.');
  return { kit, line, seat };
}

/**
 * The buyer's changes of one seat: `remove` a member (their access ends), `cancel` an invitation,
 * `resend` an invitation (a new link; the old one stops working).
 */
export async function changeSeat(
  deps: SeatDeps,
  buyerId: number,
  sefId: string,
  seatId: number,
  action: 'remove' | 'cancel' | 'resend',
): Promise<void> {
  const token = randomBytes(24).toString('base64url');
  let jobs = 0;
  await deps.db.transaction(async (tx) => {
    const { kit, seat } = await lockedSeatOfBuyer(tx, buyerId, sefId, seatId);
    if (action === 'remove') {
      if (seat.status !== 'active')
        throw new AppError('conflict', `${seat.email} has not accepted yet: cancel the invitation.`);
      jobs = await endSeat(tx, seat, kit.id);
    } else if (seat.status !== 'pending') {
      throw new AppError('conflict', `${seat.email} accepted the invitation already: remove the member instead.`);
    } else if (action === 'cancel') {
      await endSeat(tx, seat, kit.id);
    } else {
      const buyer = await contactOf(tx, buyerId);
      await tx
        .update(teamSeats)
        .set({ tokenHash: hashToken(token), invitedAt: sql`now()` })
        .where(eq(teamSeats.id, seat.id));
      await enqueueMail(
        tx,
        seatInvitationMail(deps.mail, seat.email, {
          kitTitle: kit.title,
          managerName: buyer.name,
          managerEmail: buyer.email,
          token,
        }),
      );
    }
  });
  if (action === 'resend') deps.mailQueued();
  if (jobs > 0) deps.githubQueued?.();
}

/** An invitation by its link's token: the kit, who invited, to which address, where it stands. */
export async function findInvitation(db: Db, token: string) {
  const [row] = await db
    .select({
      seat: teamSeats,
      kitId: orderItems.kitId,
      licenceId: orderItems.licenceId,
      manager: sql<Contact | null>`${contactSql(sql`${orders.userId}`)}`,
    })
    .from(teamSeats)
    .innerJoin(orderItems, eq(orderItems.id, teamSeats.orderItemId))
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(eq(teamSeats.tokenHash, hashToken(token)));
  return row;
}

/**
 * The invitee accepts: signed in with the invited address (any letter case), they take the seat and
 * own the kit through it, GitHub access included. Refused when the address differs, the invitation
 * ended, the Team line was refunded, or they own the kit already (their seat stays free).
 */
export async function acceptInvitation(
  deps: SeatDeps,
  userId: number,
  token: string,
): Promise<{ sefId: string; title: string }> {
  let jobs = 0;
  const accepted = await deps.db.transaction(async (tx) => {
    const found = await findInvitation(tx, token);
    if (!found) throw new AppError('not_found', 'This invitation link is not valid.');
    const line = await lockLine(tx, found.seat.orderItemId);
    if (!line) throw new AppError('conflict', 'This Team licence was refunded: its seats are gone.');
    const [seat] = await tx.select().from(teamSeats).where(eq(teamSeats.id, found.seat.id)).for('update');
    if (seat?.status !== 'pending' || seat.tokenHash !== hashToken(token))
      throw new AppError(
        'conflict',
        seat?.status === 'active' ? 'This invitation was accepted already.' : 'This invitation was cancelled.',
      );
    const me = await contactOf(tx, userId);
    if (me.email.toLowerCase() !== seat.emailKey)
      throw new AppError('forbidden', `This invitation is for ${seat.email}. Sign in with that address to accept it.`);
    if ((await ownedKitIds(tx, userId, [line.kitId])).has(line.kitId))
      throw new AppError('conflict', 'You own this kit already: the seat stays free for a colleague.');
    await tx
      .update(teamSeats)
      .set({ status: 'active', userId, acceptedAt: sql`now()` })
      .where(eq(teamSeats.id, seat.id));
    await tx.execute(grantSql([{ userId, kitId: line.kitId, source: seatSource(seat.id) }]));
    const tier = await findLicence(tx, line.licenceId);
    await issueLicenceKeys(tx, deps.licenceBox, [
      { userId, kitId: line.kitId, activationLimit: tier?.activationLimit },
    ]);
    jobs = await queueRepositoryAccessSync(tx, userId);
    return line.kitId;
  });
  if (jobs > 0) deps.githubQueued?.();
  const [kit] = await findKitReleases(deps.db, [accepted]);
  return { sefId: kit!.sefId, title: kit!.title };
}

/**
 * Ends the open seats of a buyer's Team lines that no longer give seats (refunded in full, or an
 * upgrade from Solo that lapsed when the Solo purchase it counted was refunded), in the caller's
 * transaction: invitations cancelled, members' access ended. Answers the repository jobs queued.
 */
export async function endSeatsOfEndedLines(tx: Db, buyerId: number): Promise<number> {
  const ended = await tx
    .select({ seat: teamSeats, kitId: orderItems.kitId })
    .from(teamSeats)
    .innerJoin(orderItems, eq(orderItems.id, teamSeats.orderItemId))
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(orders.userId, buyerId),
        inArray(teamSeats.status, [...OPEN]),
        sql`(${orderItems.refundedAt} IS NOT NULL OR ${orderItems.lapsedAt} IS NOT NULL)`,
      ),
    )
    .orderBy(teamSeats.id)
    .for('update', { of: teamSeats });
  let jobs = 0;
  for (const { seat, kitId } of ended) jobs += await endSeat(tx, seat, kitId);
  return jobs;
}

/**
 * The highest tier a user still holds of each of these kits, as its activation limit: their own
 * live Team lines and the Team seats they hold. A kit held only as Solo, by a grant, or not at all
 * has no limit here (the licences feature gives it Solo's).
 */
export async function tiersHeld(
  db: Db,
  userId: number,
  kitIds: number[],
): Promise<{ kitId: number; activationLimit: number | undefined }[]> {
  if (kitIds.length === 0) return [];
  const lines = await db
    .select({ kitId: orderItems.kitId, licenceId: teamLineColumns.licenceId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        liveLine,
        inArray(orderItems.kitId, kitIds),
        or(
          eq(orders.userId, userId),
          sql`EXISTS (SELECT 1 FROM ${teamSeats} s WHERE s.order_item_id = ${orderItems.id}
                 AND s.user_id = ${userId} AND s.status = 'active')`,
        ),
      ),
    );
  const limits = await licenceActivationLimits(
    db,
    lines.map((l) => l.licenceId),
  );
  return kitIds.map((kitId) => {
    const held = lines.filter((l) => l.kitId === kitId).flatMap((l) => limits.get(l.licenceId) ?? []);
    return { kitId, activationLimit: held.length > 0 ? Math.max(...held) : undefined };
  });
}
