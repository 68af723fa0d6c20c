import type { FastifyRequest, FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import type { z } from 'zod';
import { inputError } from './errors.ts';
import { requireUser } from './session.ts';

/**
 * Routes declare their input as the shared Zod schemas (`src/common/schemas`) in Fastify's
 * `schema` option: Fastify validates the body, query and path parameters before the handler
 * runs, and this type provider (Fastify's documented extension point for schema libraries) types
 * `request.body`, `request.query` and `request.params` from them.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** Path parameters that are a visitor's typed input (a discount code), not the name of a resource. */
const TYPED_PARAMS = new WeakSet<z.ZodType>();
export function typedParams<T extends z.ZodType>(schema: T): T {
  TYPED_PARAMS.add(schema);
  return schema;
}

/**
 * Fastify's validator for Zod schemas: the parsed value (trimmed, defaulted) replaces the input;
 * a refusal is the shop's error. A path that names no valid resource is "not found" (404); a bad
 * body, query or typed parameter names its first bad field (422).
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const parsed = schema.safeParse(data ?? {});
    if (parsed.success) return { value: parsed.data };
    return {
      error: inputError(
        parsed.error,
        httpPart === 'params' && !TYPED_PARAMS.has(schema) ? 'not_found' : 'invalid_data',
      ),
    };
  };

/**
 * A route's `preValidation` for signed-in callers: a caller without a session gets the 401 before
 * their input is looked at, as before schemas. The handler reads the user with `requireUser`
 * (`request.user()` is resolved once per request).
 */
export async function signedIn(request: FastifyRequest): Promise<void> {
  await requireUser(request);
}
