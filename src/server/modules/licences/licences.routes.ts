import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SefIdParamsSchema } from '../../../common/schemas/catalog.ts';
import { DeactivateInstanceSchema, type HolderLicence } from '../../../common/schemas/licences.ts';
import type { Database } from '../../db/open.ts';
import { AppError, parseInput } from '../../http/errors.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { requireUser } from '../../http/session.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { findOwnedKit } from '../library/library.service.ts';
import { deactivateHolderInstance, findHolderLicence } from './licences.service.ts';

/** The holder's side: the item page's licence key and activations, and `Deactivate`. */
export function registerLicenceRoutes(fastify: FastifyInstance, deps: { db: Database; box: SecretBox }): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, box } = deps;

  async function ownedKitId(request: FastifyRequest, sefid: string) {
    const user = await requireUser(request);
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

  const route = { preValidation: signedIn, schema: { params: SefIdParamsSchema } };

  app.post('/api/licences/:sefid', route, async (request) => {
    const { userId, kitId } = await ownedKitId(request, request.params.sefid);
    return licenceOf(userId, kitId);
  });

  app.post('/api/licences/:sefid/deactivate', route, async (request) => {
    const { userId, kitId } = await ownedKitId(request, request.params.sefid);
    // Parsed after the ownership check: someone else's kit answers 403 whatever the body.
    const { instance_id } = parseInput(DeactivateInstanceSchema, request.body);
    if (!(await deactivateHolderInstance(db, userId, kitId, instance_id)))
      throw new AppError('not_found', 'That activation is not one of this licence’s.');
    return licenceOf(userId, kitId);
  });
}
