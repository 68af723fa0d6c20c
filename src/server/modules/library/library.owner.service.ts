import { sql } from 'drizzle-orm';
import type { Reader } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import { enqueueMail } from '../../integrations/mail/outbox.ts';
import { kitGrantedMail, kitRevokedMail, type MailContext } from '../../integrations/mail/templates.ts';
import { kitVersionNameSql } from '../catalog/catalog.service.ts';
import { queueRepositoryAccessSync } from '../github/github.service.ts';
import { lockBuyerRefunds } from '../orders/fulfilment.service.ts';
import { paidLinesOf } from '../orders/orders.owner.service.ts';

/** What the owner console reads and changes of the library (only the library's own tables). */

/**
 * Gives a kit to a customer: a grant row, and the kit owned at once (an entitlement the customer
 * already holds from an order keeps its source). False when the kit is granted already.
 */
export async function grantKit(
  tx: Reader,
  grant: { userId: number; kitId: number; note: string; by: number },
): Promise<boolean> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    INSERT INTO kit_grants (user_id, kit_id, note, granted_by)
    VALUES (${grant.userId}, ${grant.kitId}, ${grant.note}, ${grant.by})
    ON CONFLICT (user_id, kit_id) WHERE revoked_at IS NULL DO NOTHING RETURNING id`);
  if (rows.length === 0) return false;
  await tx.execute(sql`
    INSERT INTO entitlements (user_id, kit_id, source) VALUES (${grant.userId}, ${grant.kitId}, 'grant')
    ON CONFLICT (user_id, kit_id) DO UPDATE
      SET source = CASE WHEN entitlements.revoked_at IS NULL THEN entitlements.source ELSE 'grant' END,
          granted_at = CASE WHEN entitlements.revoked_at IS NULL THEN entitlements.granted_at ELSE now() END,
          revoked_at = NULL`);
  return true;
}

/**
 * Ends a customer's grant of a kit; the kit goes at once unless `stillPaidFor` (a paid line not
 * refunded keeps it). False when there is no grant to revoke.
 */
export async function revokeGrant(
  tx: Reader,
  revoke: { userId: number; kitId: number; note: string; stillPaidFor: boolean },
): Promise<boolean> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    UPDATE kit_grants SET revoked_at = now(), revoke_note = ${revoke.note}
     WHERE user_id = ${revoke.userId} AND kit_id = ${revoke.kitId} AND revoked_at IS NULL RETURNING id`);
  if (rows.length === 0) return false;
  if (!revoke.stillPaidFor)
    await tx.execute(sql`
      UPDATE entitlements SET revoked_at = now()
       WHERE user_id = ${revoke.userId} AND kit_id = ${revoke.kitId} AND revoked_at IS NULL`);
  return true;
}

/**
 * An owner gives a customer a kit or ends their grant of it, in the caller's transaction: it takes its
 * turn with the customer's refunds (each sees what the other did), a revoke leaves a kit a paid line
 * still pays for, and the customer's repository access follows; the customer is mailed what changed
 * (in the same transaction). A grant that is there already, or a revoke of none, is a conflict.
 * Answers how many repository jobs were queued.
 */
export async function changeCustomerGrant(
  tx: Reader,
  change: {
    kind: 'grant' | 'revoke';
    customer: { id: number; email: string; name: string };
    kit: { id: number; title: string };
    note: string;
    by: number;
  },
  mail: MailContext,
): Promise<number> {
  const { customer, kit } = change;
  await lockBuyerRefunds(tx, customer.id);
  // An erased account reads with no address: nobody to tell.
  const tell = async (message: Parameters<typeof enqueueMail>[1]) => {
    if (customer.email) await enqueueMail(tx, message);
  };
  if (change.kind === 'grant') {
    const done = await grantKit(tx, { userId: customer.id, kitId: kit.id, note: change.note, by: change.by });
    if (!done) throw new AppError('conflict', `${customer.email} has a grant of ${kit.title} already.`);
    await tell(kitGrantedMail(mail, customer, kit));
  } else {
    const stillPaidFor = (await paidLinesOf(tx, customer.id, [kit.id])).length > 0;
    const done = await revokeGrant(tx, { userId: customer.id, kitId: kit.id, note: change.note, stillPaidFor });
    if (!done) throw new AppError('conflict', `${customer.email} has no grant of ${kit.title} to revoke.`);
    await tell(kitRevokedMail(mail, customer, { title: kit.title, kept: stillPaidFor }));
  }
  return queueRepositoryAccessSync(tx, customer.id);
}

/** What a customer owns now, with the grants in force. */
export async function holdingsOf(db: Reader, userId: number) {
  const [owned, grants] = await Promise.all([
    db.execute<{ kit_id: number; source: string; granted_at: string }>(sql`
      SELECT kit_id, source, granted_at FROM entitlements
       WHERE user_id = ${userId} AND revoked_at IS NULL ORDER BY granted_at, kit_id`),
    db.execute<{ kit_id: number; granted_at: string; note: string }>(sql`
      SELECT kit_id, granted_at, note FROM kit_grants
       WHERE user_id = ${userId} AND revoked_at IS NULL ORDER BY granted_at, kit_id`),
  ]);
  return { owned: owned.rows, grants: grants.rows };
}

/** A customer's downloads, newest first (at most 100). */
export async function downloadsOf(db: Reader, userId: number) {
  const { rows } = await db.execute<{ kit_id: number; version: string; at: string }>(sql`
    SELECT d.kit_id, ${kitVersionNameSql(sql`d.version_id`)} AS version, d.created_at AS at FROM downloads d
     WHERE d.user_id = ${userId} ORDER BY d.created_at DESC, d.id DESC LIMIT 100`);
  return rows;
}

/**
 * Per kit: downloads, and how many own it now (kit_counts, kept by triggers, plus the owner count
 * changes not folded in yet). A kit may be absent: nobody downloaded or owned it yet, read zero. The
 * catalog answers each kit's versions (`allKitsWithNewestVersion`).
 */
export async function libraryStatsByKit(db: Reader) {
  const { rows } = await db.execute<{ kit_id: number; downloads: number; owners: number }>(sql`
    SELECT kit_id, sum(downloads)::int AS downloads, sum(owners)::int AS owners
      FROM (SELECT kit_id, downloads, owners FROM kit_counts
            UNION ALL SELECT kit_id, 0, delta FROM kit_owner_changes) counted
     GROUP BY kit_id`);
  return new Map(rows.map((r) => [r.kit_id, r]));
}

/**
 * Folds the owner count changes the entitlements trigger appended into kit_counts, in one
 * statement (a housekeeping chore); answers how many change rows it folded.
 */
export async function foldKitOwnerChanges(db: Reader): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    WITH moved AS (DELETE FROM kit_owner_changes RETURNING kit_id, delta),
    sums AS (SELECT kit_id, sum(delta)::int AS n FROM moved GROUP BY kit_id),
    folded AS (
      INSERT INTO kit_counts (kit_id, owners) SELECT kit_id, n FROM sums WHERE n <> 0 ORDER BY kit_id
      ON CONFLICT (kit_id) DO UPDATE SET owners = kit_counts.owners + EXCLUDED.owners)
    SELECT count(*)::int AS n FROM moved`);
  return rows[0]?.n ?? 0;
}
