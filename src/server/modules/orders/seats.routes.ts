import type { FastifyInstance } from 'fastify';
import { SefIdParamsSchema } from '../../../common/schemas/catalog.ts';
import {
  InvitationParamsSchema,
  type InvitationResponse,
  SeatInviteSchema,
  SeatParamsSchema,
  type SeatsResponse,
} from '../../../common/schemas/seats.ts';
import { AppError } from '../../http/errors.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { requireUser } from '../../http/session.ts';
import { findKitReleases, findLicence } from '../catalog/catalog.service.ts';
import {
  acceptInvitation,
  changeSeat,
  findInvitation,
  inviteToSeat,
  type SeatDeps,
  seatsOfKit,
} from './seats.service.ts';

/** Invitations a buyer may send in an hour (each is a mail to an address they typed). */
const INVITES_PER_HOUR = { max: 30, windowSeconds: 3600 };

/**
 * Team seats for the buyer (list, invite, resend, cancel, remove) and the invitee's link (read,
 * accept). Every call needs a signed-in user but reading an invitation, whose token is the secret.
 */
export function registerSeatRoutes(fastify: FastifyInstance, deps: SeatDeps & { limiter: RateLimiter }): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, limiter } = deps;

  app.get(
    '/api/seats/:sefid',
    { preValidation: signedIn, schema: { params: SefIdParamsSchema } },
    async (request): Promise<SeatsResponse> => {
      const user = await requireUser(request);
      const { sefid } = request.params;
      return seatsOfKit(db, user.id, sefid);
    },
  );

  app.post(
    '/api/seats/:sefid/invite',
    { preValidation: signedIn, schema: { params: SefIdParamsSchema, body: SeatInviteSchema } },
    async (request) => {
      const user = await requireUser(request);
      const { sefid } = request.params;
      const { email } = request.body;
      await limiter.consume(`seat-invite:user:${user.id}`, INVITES_PER_HOUR, 'invitations');
      await inviteToSeat(deps, user.id, sefid, email);
      return seatsOfKit(db, user.id, sefid);
    },
  );

  for (const action of ['remove', 'cancel', 'resend'] as const)
    app.post(
      `/api/seats/:sefid/:id/${action}`,
      { preValidation: signedIn, schema: { params: SeatParamsSchema } },
      async (request) => {
        const user = await requireUser(request);
        const { sefid, id } = request.params;
        if (action === 'resend') await limiter.consume(`seat-invite:user:${user.id}`, INVITES_PER_HOUR, 'invitations');
        await changeSeat(deps, user.id, sefid, id, action);
        return seatsOfKit(db, user.id, sefid);
      },
    );

  app.get(
    '/api/seat-invitations/:token',
    { schema: { params: InvitationParamsSchema } },
    async (request): Promise<InvitationResponse> => {
      const { token } = request.params;
      const found = await findInvitation(db, token);
      if (!found?.manager) throw new AppError('not_found', 'This invitation link is not valid.');
      const [[kit], licence] = await Promise.all([
        findKitReleases(db, [found.kitId]),
        found.licenceId === null ? undefined : findLicence(db, found.licenceId),
      ]);
      return {
        sef_id: kit!.sefId,
        kit_title: kit!.title,
        licence: licence?.name ?? 'Team',
        manager_name: found.manager.name,
        email: found.seat.email,
        status: found.seat.status,
      };
    },
  );

  app.post(
    '/api/seat-invitations/:token/accept',
    { preValidation: signedIn, schema: { params: InvitationParamsSchema } },
    async (request) => {
      const user = await requireUser(request);
      const { token } = request.params;
      const kit = await acceptInvitation(deps, user.id, token);
      return { sef_id: kit.sefId, title: kit.title };
    },
  );
}
