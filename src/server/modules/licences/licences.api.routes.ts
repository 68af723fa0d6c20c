import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/open.ts';
import { ipKey, type Limit, type RateLimiter } from '../../http/rate-limit.ts';
import { canonicalKey, hashLicenceKey, isUsable } from './licence-key.ts';
import { activateLicence, deactivateInstance, type FoundLicence, findLicenceByHash } from './licences.service.ts';

/** Per key and per client address, as Lemon Squeezy limits its License API. */
export const LICENCE_API_LIMIT: Limit = { max: 60, windowSeconds: 60 };

const text = (name: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required.` : `${name} must be text.`) })
    .trim()
    .min(1, `${name} is required.`)
    .max(max, `${name} is too long.`);
const ActivateBody = z.object({ license_key: text('license_key', 200), instance_name: text('instance_name', 200) });
const ValidateBody = z.object({
  license_key: text('license_key', 200),
  instance_id: text('instance_id', 100).optional(),
});
const DeactivateBody = z.object({ license_key: text('license_key', 200), instance_id: text('instance_id', 100) });

/** The answer of a client error: the API's `{error}` (with the verb's flag false), never the shop's `{message}`. */
class ApiAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly retryAfter?: number,
  ) {
    super(String(body.error));
  }
}

function parseBody<T extends z.ZodType>(schema: T, body: unknown, flag: string): z.output<T> {
  const parsed = schema.safeParse(body && typeof body === 'object' ? body : {});
  if (parsed.success) return parsed.data;
  throw new ApiAnswer(400, { [flag]: false, error: parsed.error.issues[0]?.message ?? 'The request is not valid.' });
}

const licenceKeyAnswer = (licence: FoundLicence, key: string) => ({
  status: licence.status,
  key: canonicalKey(key),
  activation_limit: licence.activationLimit,
  activation_usage: licence.activationUsage,
  created_at: licence.createdAt.toISOString(),
  expires_at: null,
});
const metaAnswer = (licence: FoundLicence) => ({
  kit_sef_id: licence.kit?.sef_id ?? '',
  kit_title: licence.kit?.title ?? '',
  customer_email: licence.customerEmail,
});

const REFUSED: Partial<Record<FoundLicence['status'], string>> = {
  disabled: 'This license key has been disabled.',
  revoked: 'This license key has been revoked.',
  expired: 'This license key has expired.',
};

/**
 * Lemon Squeezy's License API for kits' own tooling, under `{base}/api/v1/licenses/`: JSON or form
 * bodies, no session, no CSRF token (`csrf: false`, as the payment webhook), no cookie ever set.
 * Client errors answer `{error}` with the verb's flag false; limits are per key and per address.
 */
export function registerLicenceApiRoutes(app: FastifyInstance, deps: { db: Database; limiter: RateLimiter }): void {
  const { db, limiter } = deps;

  // Both counters and the lookup go out at once: a call costs one round trip's wait, and an unknown
  // key is counted and looked up exactly like a known one.
  async function lookUp(request: FastifyRequest, key: string, instanceId: string | undefined, flag: string) {
    const keyHash = hashLicenceKey(key);
    const [byKey, byAddress, licence] = await Promise.all([
      limiter.count(`licence-key:${keyHash.slice(0, 32)}`, LICENCE_API_LIMIT),
      limiter.count(`licence-ip:${ipKey(request.ip)}`, LICENCE_API_LIMIT),
      findLicenceByHash(db.$client, keyHash, instanceId),
    ]);
    const over = [byKey, byAddress].filter((c) => c.count > LICENCE_API_LIMIT.max);
    if (over.length > 0) {
      const wait = Math.max(...over.map((c) => c.retryAfter));
      throw new ApiAnswer(429, { [flag]: false, error: `Too many requests. Try again in ${wait} seconds.` }, wait);
    }
    if (!licence) throw new ApiAnswer(404, { [flag]: false, error: 'license_key not found.' });
    return licence;
  }

  const route: RouteShorthandOptions = {
    config: { csrf: false },
    bodyLimit: 16 * 1024,
    errorHandler: (error: FastifyError | ApiAnswer, request: FastifyRequest, reply: FastifyReply) => {
      const flag = FLAGS[request.url.split('?')[0]!.split('/').pop() ?? ''] ?? 'valid';
      if (error instanceof ApiAnswer) {
        if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
        return reply.status(error.status).send(error.body);
      }
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'licence API request failed');
        return reply.status(500).send({ [flag]: false, error: 'Something went wrong on our side.' });
      }
      // Bodies the parsers refused (bad JSON, another content type, too long): the client's mistake.
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return reply.status(413).send({ [flag]: false, error: 'The request body is too large.' });
      const unreadable = error.code?.startsWith('FST_ERR_CTP') || !error.message;
      return reply.status(400).send({ [flag]: false, error: unreadable ? UNREADABLE : error.message });
    },
  };

  app.post('/api/v1/licenses/activate', route, async (request, reply) => {
    const input = parseBody(ActivateBody, request.body, 'activated');
    const licence = await lookUp(request, input.license_key, undefined, 'activated');
    const refused = REFUSED[licence.status];
    const known = { license_key: licenceKeyAnswer(licence, input.license_key), meta: metaAnswer(licence) };
    if (refused) return reply.status(400).send({ activated: false, error: refused, ...known });
    const done = await activateLicence(db, licence, input.instance_name);
    const after = { ...licence, activationUsage: done.usage, activationLimit: done.limit };
    if (done.refused)
      return reply.status(400).send({
        activated: false,
        error: 'This license key has reached its activation limit.',
        license_key: licenceKeyAnswer(after, input.license_key),
        meta: known.meta,
      });
    return {
      activated: true,
      error: null,
      license_key: licenceKeyAnswer({ ...after, status: 'active' }, input.license_key),
      instance: done.instance,
      meta: known.meta,
    };
  });

  app.post('/api/v1/licenses/validate', route, async (request, reply) => {
    const input = parseBody(ValidateBody, request.body, 'valid');
    const licence = await lookUp(request, input.license_key, input.instance_id, 'valid');
    const known = { license_key: licenceKeyAnswer(licence, input.license_key), meta: metaAnswer(licence) };
    if (input.instance_id && !licence.instance)
      return reply.status(404).send({ valid: false, error: 'instance_id not found.', ...known, instance: null });
    const usable = isUsable(licence.status);
    return {
      valid: usable,
      error: usable ? null : (REFUSED[licence.status] ?? null),
      license_key: known.license_key,
      instance: licence.instance,
      meta: known.meta,
    };
  });

  app.post('/api/v1/licenses/deactivate', route, async (request, reply) => {
    const input = parseBody(DeactivateBody, request.body, 'deactivated');
    const licence = await lookUp(request, input.license_key, input.instance_id, 'deactivated');
    const known = { license_key: licenceKeyAnswer(licence, input.license_key), meta: metaAnswer(licence) };
    if (!licence.instance || !(await deactivateInstance(db, licence.id, input.instance_id)))
      return reply.status(404).send({ deactivated: false, error: 'instance_id not found.', ...known });
    const usage = licence.activationUsage - 1;
    const status = licence.status === 'active' && usage === 0 ? 'inactive' : licence.status;
    return {
      deactivated: true,
      error: null,
      license_key: licenceKeyAnswer({ ...licence, status, activationUsage: usage }, input.license_key),
      meta: known.meta,
    };
  });
}

const UNREADABLE = 'Send JSON (application/json) or form fields (application/x-www-form-urlencoded).';
const FLAGS: Record<string, string> = { activate: 'activated', validate: 'valid', deactivate: 'deactivated' };
