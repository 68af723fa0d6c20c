import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatUsd } from '../../../common/money.ts';
import { DiscountActiveSchema, DiscountCreateSchema, type OwnerDiscount } from '../../../common/schemas/discounts.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { createDiscount, listDiscounts, ownerDiscount, setDiscountActive } from '../orders/discounts.service.ts';
import { type Owner, recordActivity } from './owner.service.ts';

/** What a code takes off, in the activity log's words. */
export const describeDiscount = (d: OwnerDiscount) =>
  `${d.percent_off !== null ? `${d.percent_off}% off` : `${formatUsd(d.amount_off ?? 0)} off`}` +
  `${d.kit_ids ? ` kits ${d.kit_ids.join(', ')}` : ' every kit'}` +
  `${d.max_redemptions !== null ? `, at most ${d.max_redemptions} uses` : ''}` +
  `${d.once_per_customer ? ', once per customer' : ''}` +
  `${d.starts_at ? `, from ${d.starts_at}` : ''}${d.ends_at ? `, until ${d.ends_at}` : ''}`;

/**
 * The owner's discount codes (inside the owner scope: signed in, owner, CSRF): create, list with
 * their uses, pause and resume. Each change is written to the activity log in its transaction.
 */
export function registerDiscountRoutes(
  scope: FastifyInstance,
  deps: { db: Database; config: Config; ownerOf: (request: FastifyRequest) => Owner },
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db, config, ownerOf } = deps;

  app.get(
    '/discounts',
    async (): Promise<{ items: OwnerDiscount[]; time_zone: string }> => ({
      items: (await listDiscounts(db)).map(ownerDiscount),
      time_zone: config.shopTimeZone,
    }),
  );

  app.post('/discounts', { schema: { body: DiscountCreateSchema } }, async (request): Promise<OwnerDiscount> => {
    const input = request.body;
    const owner = ownerOf(request);
    return db.transaction(async (tx) => {
      const created = ownerDiscount(
        await createDiscount(tx, input, {
          paddle: config.paymentProvider === 'paddle',
          timeZone: config.shopTimeZone,
        }),
      );
      await recordActivity(tx, owner, {
        action: 'create discount',
        target: `discount ${created.code}`,
        detail: describeDiscount(created),
      });
      return created;
    });
  });

  app.post('/discounts/:code', { schema: { body: DiscountActiveSchema } }, async (request): Promise<OwnerDiscount> => {
    const code = String((request.params as { code: string }).code).slice(0, 40);
    const { active } = request.body;
    const owner = ownerOf(request);
    return db.transaction(async (tx) => {
      const row = await setDiscountActive(tx, code, active);
      if (!row) throw new AppError('not_found', `No discount code ${code}.`);
      await recordActivity(tx, owner, {
        action: active ? 'resume discount' : 'pause discount',
        target: `discount ${row.code}`,
        detail: `${row.code} ${active ? 'resumed' : 'paused'}`,
      });
      return ownerDiscount(row);
    });
  });
}
