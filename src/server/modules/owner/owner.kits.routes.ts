import type { FastifyInstance } from 'fastify';
import { centsToDollars } from '../../../common/money.ts';
import { KitVisibilitySchema, type OwnerKit } from '../../../common/schemas/owner.ts';
import type { Database } from '../../db/open.ts';
import { AppError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { kitPageIncomplete } from '../catalog/catalog.editor.service.ts';
import { allKitsWithNewestVersion, kitById, setKitHidden } from '../catalog/catalog.owner.service.ts';
import { libraryStatsByKit } from '../library/library.owner.service.ts';
import { salesByKit } from '../orders/orders.owner.service.ts';
import { idParams, type OwnerOf } from './owner.params.ts';
import { recordActivity } from './owner.service.ts';

/** The kits with their sales and owners, and taking a kit off the store or back (inside the owner scope). */
export function registerKitRoutes(
  scope: FastifyInstance,
  deps: { db: Database; ownerOf: OwnerOf; catalogChanged: () => void },
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db, ownerOf } = deps;

  async function kitAnswers(): Promise<OwnerKit[]> {
    const [kits, library, sales] = await Promise.all([
      allKitsWithNewestVersion(db),
      libraryStatsByKit(db),
      salesByKit(db),
    ]);
    return kits.map((k) => {
      const lib = library.get(k.id);
      const sold = sales.get(k.id);
      return {
        id: k.id,
        sef_id: k.sef_id,
        title: k.title,
        price: centsToDollars(k.price_cents),
        active: k.in_content && !k.hidden,
        version: k.version,
        released_on: k.released_on,
        units: sold?.units ?? 0,
        gross: centsToDollars(sold?.gross_cents ?? 0),
        downloads: lib?.downloads ?? 0,
        owners: lib?.owners ?? 0,
      };
    });
  }

  app.get('/kits', async () => kitAnswers());

  app.post('/kits/:id', { schema: { params: idParams('kit'), body: KitVisibilitySchema } }, async (request) => {
    const { id } = request.params;
    const input = request.body;
    const owner = ownerOf(request);
    await db.transaction(async (tx) => {
      const kit = await kitById(tx, id);
      if (!kit) throw new AppError('not_found', `No kit ${id}.`);
      if (input.active && !kit.in_content)
        throw new AppError(
          'conflict',
          `${kit.title} is no longer in the catalog content: add it back and run npm run catalog.`,
        );
      if (input.active && (await kitPageIncomplete(tx, id)))
        throw new AppError(
          'conflict',
          `${kit.title} is not complete yet: finish its page in the kit editor and save it.`,
        );
      await setKitHidden(tx, id, !input.active);
      await recordActivity(tx, owner, {
        action: input.active ? 'show kit' : 'hide kit',
        target: `kit ${id}`,
        detail: `${kit.title} ${input.active ? 'back on' : 'taken off'} the store`,
      });
    });
    deps.catalogChanged();
    return (await kitAnswers()).find((k) => k.id === id);
  });
}
