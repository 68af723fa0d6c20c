import { type SQL, sql } from 'drizzle-orm';
import { centsToDollars } from '../../../common/money.ts';
import type { Reader } from '../../db/open.ts';
import type { OrderBusiness } from '../../db/schema/orders.ts';

/**
 * Orders' part of the privacy rights. An erased account's orders stay (accounting law keeps sales:
 * amounts, kits, dates); they point at the account's pseudonymous row. Only its discount codes'
 * uses held its address (as a mailbox key), which erasure clears.
 */

/**
 * The user's orders with their lines, oldest first, amounts in dollars as the shop shows them: what
 * refunds gave back of each line (`refunded_at` when in full), and when an upgrade ended because a
 * purchase it counted was refunded.
 */
export async function ordersExport(db: Reader, userId: number) {
  const { rows } = await db.execute<{
    order_id: string;
    status: string;
    currency: string;
    total_cents: number;
    created_at: string;
    paid_at: string | null;
    transaction_id: string | null;
    /** The business the invoice names (company, VAT ID, address), when the buyer gave one. */
    business: OrderBusiness | null;
    lines: {
      kit_id: number;
      title: string;
      price_cents: number;
      refunded_cents: number;
      refunded_at: string | null;
      upgrade_ended_at: string | null;
    }[];
  }>(sql`
    SELECT o.public_id AS order_id, o.status, o.currency, o.total_cents, o.created_at, o.paid_at, o.transaction_id, o.business,
           COALESCE((SELECT json_agg(json_build_object('kit_id', i.kit_id, 'title', i.title, 'price_cents', i.price_cents,
                     'refunded_cents', i.refunded_cents, 'refunded_at', i.refunded_at, 'upgrade_ended_at', i.lapsed_at)
                     ORDER BY i.id) FROM order_items i WHERE i.order_id = o.id), '[]') AS lines
      FROM orders o WHERE o.user_id = ${userId} ORDER BY o.created_at, o.id`);
  return rows.map(({ total_cents, lines, ...order }) => ({
    ...order,
    total: centsToDollars(total_cents),
    lines: lines.map(({ price_cents, refunded_cents, ...line }) => ({
      ...line,
      price: centsToDollars(price_cents),
      refunded: centsToDollars(refunded_cents),
    })),
  }));
}

/** True for a user with orders: such an account is a buyer of record and is never swept away. */
export const hasOrdersSql = (userId: SQL): SQL => sql`EXISTS (SELECT 1 FROM orders o WHERE o.user_id = ${userId})`;

/** The mailbox keys of an erased account's code uses go; the uses stay, counted, by its pseudonymous row. */
export async function forgetRedemptionMailboxes(tx: Reader, userId: number): Promise<void> {
  // Found through the buyer's orders (indexed by buyer), each use by its order.
  await tx.execute(sql`UPDATE discount_redemptions SET mailbox = NULL
    WHERE order_id IN (SELECT id FROM orders WHERE user_id = ${userId}) AND mailbox IS NOT NULL`);
}
