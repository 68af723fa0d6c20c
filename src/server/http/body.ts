import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies: the spec's "empty" calls send no body at all while others send `{}`; both are
 * accepted. Bad JSON is a 400 with a message, never a crash. The raw text is kept on the request
 * for signature checks (payment webhooks).
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    request.rawBody = text;
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = Object.assign(new Error('The request body is not valid JSON.'), { statusCode: 400 });
      done(error, undefined);
    }
  });
}

/** Plain HTML forms (the unsubscribe page) and mail clients' one-click unsubscribe POSTs. */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      request.rawBody = text;
      done(null, Object.fromEntries(new URLSearchParams(text)));
    },
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}
