import type { FastifyInstance } from 'fastify';
import { SefIdParamsSchema } from '../../../common/schemas/catalog.ts';
import { DeactivateInstanceSchema, type HolderLicence } from '../../../common/schemas/licences.ts';
import type { Database } from '../../db/open.ts';
import { AppError, parseInput } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { findOwnedKit } from '../library/library.service.ts';
import { deactivateHolderInstance, findHolderLicence } from './licences.service.ts';

/** The holder's side: the item page's licence key and activations, and `Deactivate`. */
export function registerLicenceRoutes(app: FastifyInstance, deps: { db: Database; box: SecretBox }): void {
  const { db, box } = deps;

  async function ownedKitId(request: Parameters<typeof requireUser>[0]) {
    const user = await requireUser(request);
    const { sefid } = parseInput(SefIdParamsSchema, request.params, 'not_found');
    const kit = await findOwnedKit(db, user.id, sefid);
    if (kit === 'unknown') throw new AppError('not_found', 'We could not find that kit.');
    if (kit === 'not_owned') throw new AppError('forbidden', 'This kit is not in your purchases.');
    return { userId: user.id, kitId: kit.id };
  }

  async function licenceOf(userId: number, kitId: number): Promise<HolderLicence> {
    const licence = await findHolderLicence(db, box, userId, kitId);
    if (!licence) throw new AppError('not_found', 'This kit has no licence key.');
    return licence;
  }

  app.post('/api/licences/:sefid', async (request) => {
    const { userId, kitId } = await ownedKitId(request);
    return licenceOf(userId, kitId);
  });

  app.post('/api/licences/:sefid/deactivate', async (request) => {
    const { userId, kitId } = await ownedKitId(request);
    const { instance_id } = parseInput(DeactivateInstanceSchema, request.body);
    if (!(await deactivateHolderInstance(db, userId, kitId, instance_id)))
      throw new AppError('not_found', 'That activation is not one of this licence’s.');
    return licenceOf(userId, kitId);
  });
}
