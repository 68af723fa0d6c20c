import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ChangePasswordSchema,
  ForgotPasswordSchema,
  LoginSchema,
  RegisterSchema,
  ResetPasswordSchema,
  ReturnPathSchema,
  VerifyEmailQuerySchema,
} from '../../../common/schemas/accounts.ts';
import { shopCookies } from '../../http/cookies.ts';
import { signedIn, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { requireUser } from '../../http/session.ts';
import type { GoogleSignIn } from '../../integrations/oidc/google.ts';
import {
  authenticate,
  changePassword,
  MESSAGES,
  register,
  requestPasswordReset,
  resetPassword,
  signInWithGoogle,
  verifyEmail,
  workBesideAnswersDone,
} from './accounts.service.ts';
import { askSecondStep, signedInAnswer, startSession, withOwnerFlag } from './sign-in.ts';
import { hasTwoStep, TWO_STEP_MESSAGES, type TwoStepDeps } from './two-step.service.ts';

/** The account calls of SPEC.md's table. Routes parse and answer; the service decides. */
export function registerAccountRoutes(fastify: FastifyInstance, deps: TwoStepDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('onClose', workBesideAnswersDone);

  app.post('/api/register', { schema: { body: RegisterSchema } }, async (request) => {
    return { message: await register(deps, request.body, request.ip) };
  });

  app.post('/api/login', { schema: { body: LoginSchema } }, async (request, reply) => {
    const input = request.body;
    const user = await authenticate(deps, input, request.ip, request.log);
    if (await hasTwoStep(deps.db, user.id)) {
      // No session until the code: the right password alone signs nobody in.
      await askSecondStep(reply, deps, user.id, input.remember);
      return { second_step: true, message: TWO_STEP_MESSAGES.askCode };
    }
    await startSession(deps, request, reply, user.id, input.remember, { method: 'password' });
    return signedInAnswer(deps, user, MESSAGES.loggedIn);
  });

  // A GET that changes state: it needs the CSRF token like any POST.
  app.get('/api/exit', { config: { csrf: true } }, async (_request, reply) => {
    await reply.signOut();
    return { ok: true };
  });

  app.post('/email/verify', async (request, reply) => {
    const query = VerifyEmailQuerySchema.safeParse(request.query);
    const current = await request.user();
    const verified = query.success
      ? await verifyEmail(deps, query.data.email, query.data.token, current?.id)
      : undefined;
    if (!verified) return { user: {}, data: { result: 'failed', message: MESSAGES.verifyFailed } };
    // Without a user in the answer the page shows the message and keeps the visitor's session.
    if (!verified.signIn || (await hasTwoStep(deps.db, verified.user.id))) {
      return { user: {}, data: { result: 'success', message: verified.message } };
    }
    await startSession(deps, request, reply, verified.user.id, false, { method: 'link' });
    return { user: await withOwnerFlag(deps, verified.user), data: { result: 'success', message: verified.message } };
  });

  app.post('/api/forgot-password', { schema: { body: ForgotPasswordSchema } }, async (request) => {
    const { email } = request.body;
    return { message: await requestPasswordReset(deps, email, request.ip, request.log) };
  });

  app.post('/api/reset-password', { schema: { body: ResetPasswordSchema } }, async (request) => {
    return { message: await resetPassword(deps, request.body, request.ip) };
  });

  app.post(
    '/api/changePassword',
    { preValidation: signedIn, schema: { body: ChangePasswordSchema } },
    async (request) => {
      const user = await requireUser(request);
      return { message: await changePassword(deps, user.id, request.body, request.sessionToken()) };
    },
  );
}

const OidcStateSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  returnPath: z.string(),
});

/** Google sign-in: a redirect carrying the return path out, and the callback that signs in. */
export function registerGoogleRoutes(app: FastifyInstance, deps: TwoStepDeps, google: GoogleSignIn): void {
  const { basePath, publicUrl, secureCookies } = deps.config;
  const { oidc: OIDC_COOKIE, options: cookieOptions } = shopCookies(deps.config);
  const cookie = {
    path: cookieOptions.path,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookies,
    signed: true,
  };

  app.get('/google/redirect', async (request, reply) => {
    const { returnPath: raw, reauth } = request.query as { returnPath?: unknown; reauth?: unknown };
    const returnPath = ReturnPathSchema.safeParse(typeof raw === 'string' ? raw : '');
    // `reauth=1`: deleting a Google-only account asks for a fresh Google sign-in.
    const start = await google.start({ reauth: reauth === '1' });
    const state = {
      state: start.state,
      nonce: start.nonce,
      codeVerifier: start.codeVerifier,
      returnPath: returnPath.success ? returnPath.data : '',
    };
    reply.setCookie(OIDC_COOKIE, JSON.stringify(state), { ...cookie, maxAge: 600 });
    return reply.redirect(start.url);
  });

  app.get('/google/callback', async (request, reply) => {
    const signed = request.cookies[OIDC_COOKIE] ? request.unsignCookie(request.cookies[OIDC_COOKIE]) : undefined;
    reply.clearCookie(OIDC_COOKIE, cookie);
    let saved: z.infer<typeof OidcStateSchema> | undefined;
    try {
      saved = signed?.valid && signed.value ? OidcStateSchema.parse(JSON.parse(signed.value)) : undefined;
    } catch {
      saved = undefined;
    }
    const fail = (reason: string) => reply.redirect(`${basePath}/login?google=${reason}`);
    if (!saved) return fail('expired');
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    let identity: Awaited<ReturnType<GoogleSignIn['finish']>>;
    try {
      identity = await google.finish(new URL(`${publicUrl}/google/callback${search}`), saved);
    } catch (error) {
      request.log.warn({ err: error }, 'Google sign-in did not complete');
      return fail('failed');
    }
    const outcome = await signInWithGoogle(deps, identity);
    if ('refused' in outcome) return fail(outcome.refused);
    if (await hasTwoStep(deps.db, outcome.user.id)) {
      await askSecondStep(reply, deps, outcome.user.id, false);
      return reply.redirect(`${basePath}/login?step=code`);
    }
    await startSession(deps, request, reply, outcome.user.id, false, { method: 'google' });
    return reply.redirect(`${basePath}/${saved.returnPath || 'user-panel'}`);
  });
}
