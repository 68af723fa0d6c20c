import type { FastifyInstance } from 'fastify';
import { centsToDollars, roundDollars } from '../../../common/money.ts';
import { type OwnerSummary, PageQuerySchema, SummaryQuerySchema } from '../../../common/schemas/owner.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { addDays, today } from '../../lib/days.ts';
import { countNewAccounts } from '../accounts/accounts.owner.service.ts';
import { allKits } from '../catalog/catalog.owner.service.ts';
import { salesFigures } from '../orders/orders.owner.service.ts';
import { decodeCursor, iso, nextCursor } from './owner.params.ts';
import { activityPage } from './owner.service.ts';

/** The owner's dashboard figures over a range of days, and the activity log (inside the owner scope). */
export function registerSummaryRoutes(scope: FastifyInstance, deps: { db: Database }): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;

  app.get('/summary', { schema: { querystring: SummaryQuerySchema } }, async (request): Promise<OwnerSummary> => {
    const input = request.query;
    const to = input.to ?? today();
    const from = input.from ?? addDays(to, -29);
    if (from > to) throw new AppError('invalid_data', 'from: must not be after to.');
    if (addDays(from, 1100) < to) throw new AppError('invalid_data', 'from: the range is at most three years.');
    const [sales, customers, kits] = await Promise.all([
      salesFigures(db, from, to),
      countNewAccounts(db, from, addDays(to, 1)),
      allKits(db),
    ]);
    const sum = (pick: (d: (typeof sales.days)[number]) => number) =>
      sales.days.reduce((total, d) => total + pick(d), 0);
    const gross = sum((d) => d.gross_cents);
    const refunds = sum((d) => d.refunds_cents);
    const orders = sum((d) => d.orders);
    const checkouts = sum((d) => d.checkouts);
    const byId = new Map(kits.map((k) => [k.id, k]));
    return {
      gross: centsToDollars(gross),
      refunds: centsToDollars(refunds),
      net: centsToDollars(gross - refunds),
      orders,
      customers,
      checkouts,
      conversion: checkouts === 0 ? 0 : Math.round((orders / checkouts) * 10_000) / 10_000,
      by_day: sales.days.map((d) => ({
        date: d.date,
        gross: centsToDollars(d.gross_cents),
        refunds: centsToDollars(d.refunds_cents),
        orders: d.orders,
      })),
      top_kits: sales.kits.slice(0, 5).map((k) => ({
        id: k.kit_id,
        sef_id: byId.get(k.kit_id)?.sef_id ?? '',
        title: byId.get(k.kit_id)?.title ?? '',
        units: k.units,
        gross: roundDollars(centsToDollars(Number(k.gross_cents))),
      })),
    };
  });

  app.get('/activity', { schema: { querystring: PageQuerySchema } }, async (request) => {
    const input = request.query;
    const rows = await activityPage(db, { after: decodeCursor(input.cursor), limit: input.limit });
    return {
      items: rows.map((r) => ({
        at: iso(r.at)!,
        actor: r.actor,
        action: r.action,
        target: r.target,
        detail: r.detail,
      })),
      next_cursor: nextCursor(rows, input.limit),
    };
  });
}
