import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type AccountSecurity,
  PasskeyIdSchema,
  PasskeyRegisterSchema,
  PasskeySignInSchema,
  SessionIdSchema,
  SignInCodeSchema,
  TotpConfirmSchema,
  TotpDisableSchema,
} from '../../../common/schemas/account-security.ts';
import { users } from '../../db/schema/accounts.ts';
import { AppError } from '../../http/errors.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { endOtherSessions, requireUser, type SessionUser } from '../../http/session.ts';
import { findOwner } from '../owner/owner.service.ts';
import { MESSAGES, requireRecentSignIn } from './accounts.service.ts';
import {
  listPasskeys,
  PASSKEY_MESSAGES,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  removePasskey,
  verifyPasskey,
} from './passkeys.service.ts';
import { endSession, listSessions } from './sessions.service.ts';
import {
  clearPendingSignIn,
  ownerStepUpRequired,
  pendingSignInToken,
  signedInAnswer,
  startSession,
} from './sign-in.ts';
import {
  confirmTotpSetup,
  disableTwoStep,
  finishSecondStep,
  hasTwoStep,
  markSecondFactor,
  OWNER_SIGN_IN_CHANGE_MESSAGE,
  ownerSessionGate,
  recoveryCodesLeft,
  startTotpSetup,
  TWO_STEP_MESSAGES,
  type TwoStepDeps,
} from './two-step.service.ts';

const SIGN_IN_AGAIN = 'For your security, please sign in again to change how you sign in.';

/**
 * Account security: the sessions list, two-step sign-in (TOTP and recovery codes) and
 * passkeys. JSON under the base path; every POST needs the CSRF header; 401 when signed out.
 */
export function registerSecurityRoutes(fastify: FastifyInstance, deps: TwoStepDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const account = async (userId: number) => {
    const [row] = await db
      .select({ id: users.id, name: users.name, email: users.email, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, userId));
    if (!row) throw new AppError('unauthorized', 'Please sign in to continue.');
    return row;
  };
  const isOwner = (userId: number) => findOwner(db, deps.config, userId).then(Boolean);

  /**
   * What every change to how an account signs in asks first: a session signed in within the last
   * 15 minutes; for a shop owner whose account has a passkey or two-step sign-in, also a session
   * that signed in with one of them (a password alone must not add, or take away, the factors
   * that guard the owner console). Answers whether the account is an owner.
   */
  const requireSignInChange = async (request: FastifyRequest, user: SessionUser): Promise<boolean> => {
    await requireRecentSignIn(db, user.id, request.sessionToken(), SIGN_IN_AGAIN);
    const owner = await isOwner(user.id);
    if (owner && (await ownerStepUpRequired(deps, user.id, request.sessionToken()))) {
      throw new AppError('forbidden', OWNER_SIGN_IN_CHANGE_MESSAGE);
    }
    return owner;
  };

  app.get('/api/account/sign-in-security', async (request): Promise<AccountSecurity> => {
    const user = await requireUser(request);
    // One answer for both owner flags: a production owner with neither factor must add one
    // (`setup`), an owner whose account has one must sign in with it (`step_up`).
    const ownerGate = async () =>
      (await isOwner(user.id)) ? ownerSessionGate(db, deps.config.production, user.id, request.sessionToken()) : 'open';
    const [me, twoStep, left, passkeys, gate] = await Promise.all([
      account(user.id),
      hasTwoStep(db, user.id),
      recoveryCodesLeft(db, user.id),
      listPasskeys(db, user.id),
      ownerGate(),
    ]);
    return {
      two_step: twoStep,
      recovery_codes_left: twoStep ? left : 0,
      passkeys,
      has_password: Boolean(me.passwordHash),
      setup_required: gate === 'setup',
      step_up_required: gate === 'step_up',
    };
  });

  // Sessions: list, end one, end every other.
  app.get('/api/account/sessions', async (request) => {
    const user = await requireUser(request);
    return { sessions: await listSessions(db, user.id, request.sessionToken()) };
  });

  app.post('/api/account/sessions/sign-out-others', async (request) => {
    const user = await requireUser(request);
    await endOtherSessions(db, user.id, request.sessionToken());
    return { message: 'Every other session is signed out.' };
  });

  app.post(
    '/api/account/sessions/:id/sign-out',
    { preValidation: signedIn, schema: { params: SessionIdSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const { id } = request.params;
      const current = (await listSessions(db, user.id, request.sessionToken())).find((s) => s.current);
      if (current?.id === id) {
        await reply.signOut();
        return { message: 'You are signed out.' };
      }
      await endSession(db, user.id, id);
      return { message: 'That session is signed out.' };
    },
  );

  // The second step of a password (or Google) sign-in.
  app.post('/api/login/code', { schema: { body: SignInCodeSchema } }, async (request, reply) => {
    const { code } = request.body;
    const done = await finishSecondStep(deps, pendingSignInToken(request, deps), code, request.ip);
    clearPendingSignIn(reply, deps);
    await startSession(deps, request, reply, done.userId, done.remember, { method: 'code' });
    const me = await account(done.userId);
    return signedInAnswer(deps, { id: me.id, name: me.name }, MESSAGES.loggedIn);
  });

  // Two-step sign-in: a secret and its QR code, the first code turns it on, the password turns it off.
  app.post('/api/account/two-step/setup', async (request) => {
    const user = await requireUser(request);
    await requireSignInChange(request, user);
    return startTotpSetup(deps, await account(user.id));
  });

  app.post(
    '/api/account/two-step/confirm',
    { preValidation: signedIn, schema: { body: TotpConfirmSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const { code } = request.body;
      const codes = await confirmTotpSetup(deps, user.id, code, request.ip, request.sessionToken());
      // The right code proved the new factor in this very session.
      await markSecondFactor(db, user.id, request.sessionToken());
      await reply.rotateSession();
      return { message: TWO_STEP_MESSAGES.enabled, recovery_codes: codes };
    },
  );

  app.post(
    '/api/account/two-step/disable',
    { preValidation: signedIn, schema: { body: TotpDisableSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const input = request.body;
      const owner = await isOwner(user.id);
      if (owner && (await ownerStepUpRequired(deps, user.id, request.sessionToken()))) {
        throw new AppError('forbidden', OWNER_SIGN_IN_CHANGE_MESSAGE);
      }
      // A production shop's owner keeps at least one passkey or two-step sign-in.
      const keepLastFactor = owner && deps.config.production;
      if (input.passkey !== undefined) {
        await verifyPasskey(deps, input.passkey, request.ip, user.id);
        await disableTwoStep(
          deps,
          user.id,
          { passkeyVerified: true },
          request.ip,
          request.sessionToken(),
          keepLastFactor,
        );
      } else {
        if (!input.password)
          throw new AppError('invalid_data', 'password: Enter your password to turn two-step sign-in off.');
        await disableTwoStep(
          deps,
          user.id,
          { password: input.password },
          request.ip,
          request.sessionToken(),
          keepLastFactor,
        );
      }
      await reply.rotateSession();
      return { message: TWO_STEP_MESSAGES.disabled };
    },
  );

  // Passkeys: register (options, then the browser's answer), list (in /security), remove.
  app.post('/api/account/passkeys/options', async (request) => {
    const user = await requireUser(request);
    await requireSignInChange(request, user);
    return passkeyRegistrationOptions(deps, await account(user.id));
  });

  app.post(
    '/api/account/passkeys',
    { preValidation: signedIn, schema: { body: PasskeyRegisterSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const input = request.body;
      const passkey = await registerPasskey(deps, user.id, input.name, input.response);
      // The browser just proved the new passkey in this very session.
      await markSecondFactor(db, user.id, request.sessionToken());
      await reply.rotateSession();
      return { message: PASSKEY_MESSAGES.added, passkey };
    },
  );

  app.post(
    '/api/account/passkeys/:id/remove',
    { preValidation: signedIn, schema: { params: PasskeyIdSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const { id } = request.params;
      const owner = await requireSignInChange(request, user);
      await removePasskey(db, user.id, id, { keepLastFactor: owner && deps.config.production });
      // A new id for this session (nothing, when this very session started with that passkey and ended with it).
      await reply.rotateSession();
      return { message: PASSKEY_MESSAGES.removed };
    },
  );

  // Passkey sign-in: discoverable credentials, no e-mail asked; no second step after it.
  app.post('/api/passkeys/sign-in/options', async (request) => passkeySignInOptions(deps, request.ip));

  app.post('/api/passkeys/sign-in', { schema: { body: PasskeySignInSchema } }, async (request, reply) => {
    const input = request.body;
    const { user, passkeyId } = await verifyPasskey(deps, input.response, request.ip);
    await startSession(deps, request, reply, user.id, input.remember, { method: 'passkey', passkeyId });
    return signedInAnswer(deps, user, MESSAGES.loggedIn);
  });
}
