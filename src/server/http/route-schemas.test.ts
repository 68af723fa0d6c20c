import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorHandler } from './errors.ts';
import { signedIn, typedParams, type ZodTypeProvider, zodValidatorCompiler } from './route-schemas.ts';
import type { SessionUser } from './session.ts';

/** A bare Fastify with the shop's validator and error handler, and a session that is signed in when asked. */
const fastify = Fastify();
const app = fastify.withTypeProvider<ZodTypeProvider>();

beforeAll(async () => {
  registerErrorHandler(fastify);
  fastify.setValidatorCompiler(zodValidatorCompiler);
  fastify.decorateRequest('user', function (this: FastifyRequest) {
    return Promise.resolve(this.headers['x-signed-in'] ? ({ id: 1 } as SessionUser) : null);
  });
  const Params = z.object({ sefid: z.string().regex(/^[a-z0-9-]+$/) });
  const Body = z.object({ email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address.')) });
  const Query = z.object({ page: z.coerce.number().int().min(1).default(1) });
  app.post('/kits/:sefid', { schema: { params: Params, body: Body, querystring: Query } }, async (request) => ({
    sefid: request.params.sefid,
    email: request.body.email,
    page: request.query.page,
  }));
  app.get(
    '/codes/:code',
    { schema: { params: typedParams(z.object({ code: z.string().max(5) })) } },
    async (request) => ({
      code: request.params.code,
    }),
  );
  app.post('/private', { preValidation: signedIn, schema: { body: Body } }, async (request) => ({
    email: request.body.email,
  }));
  await fastify.ready();
});
afterAll(() => fastify.close());

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fastify.inject({ method: 'POST', url, payload: body as object, headers });

describe('route schemas (Zod, through Fastify’s validation)', () => {
  it('hand the handler the parsed values: trimmed, lower-cased, defaulted, coerced', async () => {
    expect((await post('/kits/alpha-kit', { email: '  Ann@Example.COM ' })).json()).toEqual({
      sefid: 'alpha-kit',
      email: 'ann@example.com',
      page: 1,
    });
    expect((await post('/kits/alpha-kit?page=3', { email: 'a@b.co' })).json().page).toBe(3);
  });

  it('refuse a bad body or query with 422 naming the first bad field, as parseInput does', async () => {
    const body = await post('/kits/alpha-kit', { email: 'nope' });
    expect(body.statusCode).toBe(422);
    expect(body.json()).toEqual({ message: 'email: Enter a valid e-mail address.' });
    const missing = await post('/kits/alpha-kit', undefined);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toMatch(/^email: /);
    const query = await post('/kits/alpha-kit?page=0', { email: 'a@b.co' });
    expect(query.statusCode).toBe(422);
    expect(query.json().message).toMatch(/^page: /);
  });

  it('answer a path that names nothing valid 404, and a typed path parameter 422', async () => {
    const path = await post('/kits/NOT%20A%20KIT', { email: 'a@b.co' });
    expect(path.statusCode).toBe(404);
    expect(path.json().message).toMatch(/^sefid: /);
    const code = await fastify.inject({ method: 'GET', url: '/codes/TOOLONG' });
    expect(code.statusCode).toBe(422);
    expect(code.json().message).toMatch(/^code: /);
  });

  it('answer a signed-out caller 401 before their input is looked at', async () => {
    expect((await post('/private', { email: 'nope' })).statusCode).toBe(401);
    expect((await post('/private', { email: 'nope' }, { 'x-signed-in': '1' })).statusCode).toBe(422);
    expect((await post('/private', { email: 'a@b.co' }, { 'x-signed-in': '1' })).json()).toEqual({ email: 'a@b.co' });
  });
});
