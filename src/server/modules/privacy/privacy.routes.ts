import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ChangeEmailSchema, ConfirmEmailChangeSchema, DeleteAccountSchema } from '../../../common/schemas/privacy.ts';
import { AppError } from '../../http/errors.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { requireUser } from '../../http/session.ts';
import { accountIdentity } from '../accounts/accounts.privacy.service.ts';
import { requireRecentSignIn } from '../accounts/accounts.service.ts';
import {
  changeEmail,
  confirmEmailChange,
  deleteAccount,
  exportAccountData,
  type PrivacyDeps,
} from './privacy.service.ts';

const SIGN_IN_AGAIN_FOR_EMAIL = 'For your security, please sign in again to change your e-mail address.';
const SIGN_IN_TO_CONFIRM = 'Sign in to the account that asked for this change to confirm your new e-mail address.';

/** The Profile tab's privacy calls: export, deletion, e-mail change (README lists them). */
export function registerPrivacyRoutes(fastify: FastifyInstance, deps: PrivacyDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post('/api/account/identity', async (request) => {
    const user = await requireUser(request);
    return accountIdentity(deps.db, user.id);
  });

  app.post('/api/account/export', async (request, reply) => {
    const user = await requireUser(request);
    const data = await exportAccountData(deps, user.id, request.sessionToken());
    const day = data.exported_at.slice(0, 10);
    reply.header('content-disposition', `attachment; filename="kitshop-data-${day}.json"`);
    reply.header('cache-control', 'no-store');
    return data;
  });

  app.post(
    '/api/account/delete',
    { preValidation: signedIn, schema: { body: DeleteAccountSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const input = request.body;
      const proof = { password: input.password, passkey: input.passkey, ip: request.ip };
      await deleteAccount(deps, user.id, proof, request.sessionToken());
      await reply.signOut();
      return { message: 'Your account has been deleted. A confirmation is on its way to your e-mail address.' };
    },
  );

  // The address is where reset links go: a session left open (or taken) hours ago cannot move it.
  const signedInRecently = async (request: FastifyRequest) => {
    const user = await requireUser(request);
    await requireRecentSignIn(deps.db, user.id, request.sessionToken(), SIGN_IN_AGAIN_FOR_EMAIL);
  };
  app.post(
    '/api/account/email',
    { preValidation: signedInRecently, schema: { body: ChangeEmailSchema } },
    async (request) => {
      const user = await requireUser(request);
      return { message: await changeEmail(deps, user.id, request.body.email) };
    },
  );

  // The link from the mail proves the new mailbox; the session proves the account that asked.
  const signedInToConfirm = async (request: FastifyRequest) => {
    if (!(await request.user())) throw new AppError('unauthorized', SIGN_IN_TO_CONFIRM);
  };
  app.post(
    '/api/account/email/confirm',
    { preValidation: signedInToConfirm, schema: { body: ConfirmEmailChangeSchema } },
    async (request) => {
      const user = await request.user();
      if (!user) throw new AppError('unauthorized', SIGN_IN_TO_CONFIRM);
      const { token, email } = request.body;
      return { message: await confirmEmailChange(deps, user.id, token, email) };
    },
  );
}
