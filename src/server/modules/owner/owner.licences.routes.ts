import type { FastifyInstance } from 'fastify';
import type { OwnerLicence } from '../../../common/schemas/licences.ts';
import type { Database, Reader } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import {
  findOwnerLicence,
  licencesOf,
  resetLicenceActivations,
  setLicenceDisabled,
} from '../licences/licences.owner.service.ts';
import { findOrder } from '../orders/orders.owner.service.ts';
import { seatHoldersOfOrder } from '../orders/seats.owner.service.ts';
import { idParams, type OwnerOf } from './owner.params.ts';
import { recordActivity } from './owner.service.ts';

/**
 * An order's licence keys (masked) and the owner's `Disable`/`Enable` and `Reset Activations`,
 * each written to the activity log in its transaction.
 */
export function registerOwnerLicenceRoutes(scope: FastifyInstance, deps: { db: Database; ownerOf: OwnerOf }): void {
  const { db, ownerOf } = deps;
  const app = scope.withTypeProvider<ZodTypeProvider>();

  scope.get('/orders/:id/licences', async (request): Promise<{ items: OwnerLicence[] }> => {
    const publicId = (request.params as { id: string }).id;
    const order = await findOrder(db, publicId);
    if (!order) throw new AppError('not_found', `No order ${publicId.slice(0, 80)}.`);
    const kitIds = [...new Set((order.lines ?? []).map((l) => l.kit_id))];
    return { items: await licencesOf(db, order.user_id, kitIds, await seatHoldersOfOrder(db, publicId)) };
  });

  const change = (path: string, action: string, apply: (tx: Reader, licence: OwnerLicence) => Promise<string | null>) =>
    app.post(path, { schema: { params: idParams('licence key') } }, async (request): Promise<OwnerLicence> => {
      const { id } = request.params;
      const owner = ownerOf(request);
      await db.transaction(async (tx) => {
        const licence = await findOwnerLicence(tx, id);
        if (!licence) throw new AppError('not_found', 'No such licence key.');
        const detail = await apply(tx, licence);
        if (detail === null) throw new AppError('conflict', `This key is ${licence.status} already.`);
        await recordActivity(tx, owner, {
          action,
          target: `customer ${licence.user_id}`,
          detail: `${licence.kit_title} key ${licence.key.slice(-4)}${detail ? `: ${detail}` : ''}`,
        });
      });
      const after = await findOwnerLicence(db, id);
      if (!after) throw new AppError('not_found', 'No such licence key.');
      const { user_id: _, ...licence } = after;
      return licence;
    });

  change('/licences/:id/disable', 'disable licence key', async (tx, licence) =>
    (await setLicenceDisabled(tx, licence.id, true)) ? '' : null,
  );
  change('/licences/:id/enable', 'enable licence key', async (tx, licence) =>
    (await setLicenceDisabled(tx, licence.id, false)) ? '' : null,
  );
  change('/licences/:id/reset-activations', 'reset licence activations', async (tx, licence) => {
    const removed = await resetLicenceActivations(tx, licence.id);
    return `${removed} activation${removed === 1 ? '' : 's'} removed`;
  });
}
