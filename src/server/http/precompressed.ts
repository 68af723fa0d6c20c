import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers that are the same for every visitor (the catalog's JSON, a kept page) are compressed once
 * and kept, instead of once per response by the on-the-fly compression of app.ts: compressing costs
 * more than everything else a cached answer does (decision 019 has the figures).
 */
export type Encoding = 'br' | 'gzip';

/** app.ts's on-the-fly compression: answers from this size on, brotli at quality 4 (gzip at zlib's default). */
export const ON_THE_FLY = {
  threshold: 1024,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
} as const;

/** The encoding to answer in, or null for none; brotli first, as the on-the-fly compression. */
export function acceptedEncoding(
  request: { headers: IncomingHttpHeaders },
  offered: Encoding[] = ['br', 'gzip'],
): Encoding | null {
  const header = request.headers['accept-encoding'];
  return header ? negotiate(header, offered) : null;
}

/** The type of the JSON answers. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The `Vary` entry of an answer that depends on it, spelled as the on-the-fly compression checks for it. */
export const VARY_ENCODING = 'accept-encoding';

/** Marks the answer as compressed (the on-the-fly compression then leaves it alone). */
function setEncoding(reply: FastifyReply, encoding: Encoding | null): FastifyReply {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, ${VARY_ENCODING}` : VARY_ENCODING);
  return encoding ? reply.header('content-encoding', encoding) : reply;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Bytes kept with their compressed forms, each made (off the event loop) when first asked for. */
export class PrecompressedBody {
  readonly plain: Buffer;
  readonly #encoded = new Map<Encoding, Promise<Buffer>>();
  readonly #ready = new Map<Encoding, Buffer>();

  constructor(text: string) {
    this.plain = Buffer.from(text);
  }

  encoded(encoding: Encoding): Promise<Buffer> {
    let bytes = this.#encoded.get(encoding);
    if (!bytes) {
      bytes =
        encoding === 'br'
          ? brotli(this.plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } })
          : gzip(this.plain, { level: zlib.constants.Z_BEST_COMPRESSION });
      this.#encoded.set(encoding, bytes);
      bytes.then(
        (made) => this.#ready.set(encoding, made),
        // A failure is not kept: the next answer tries again.
        () => this.#encoded.delete(encoding),
      );
    }
    return bytes;
  }

  /** The compressed bytes once `encoded()` has made them, for an answer that cannot wait. */
  ready(encoding: Encoding): Buffer | undefined {
    return this.#ready.get(encoding);
  }
}

/**
 * The kept bodies of an owner object (a catalog snapshot or entry), by name: they live as long as
 * it does, so a new snapshot brings new ones.
 */
const bodies = new WeakMap<object, Map<string, PrecompressedBody>>();
export function precompressedOf(owner: object, name: string, text: () => string): PrecompressedBody {
  let byName = bodies.get(owner);
  if (!byName) {
    byName = new Map();
    bodies.set(owner, byName);
  }
  let body = byName.get(name);
  if (!body) {
    body = new PrecompressedBody(text());
    byName.set(name, body);
  }
  return body;
}

/**
 * An answer made for this request only, compressed as app.ts's on-the-fly compression would (the
 * same encodings, brotli quality and threshold), off the event loop: for a route that opts out of
 * that compression (`compress: false`) because its usual answers come compressed already.
 */
export async function sendCompressed(request: FastifyRequest, reply: FastifyReply, bytes: Buffer) {
  const encoding = bytes.length >= ON_THE_FLY.threshold ? acceptedEncoding(request) : null;
  if (!encoding) return reply.send(bytes);
  const encoded = encoding === 'br' ? await brotli(bytes, ON_THE_FLY.brotliOptions) : await gzip(bytes);
  return reply.header('content-encoding', encoding).send(encoded);
}

/** Sends a kept body in the encoding the request accepts best. */
export async function sendPrecompressed(request: FastifyRequest, reply: FastifyReply, body: PrecompressedBody) {
  const encoding = acceptedEncoding(request);
  return setEncoding(reply, encoding).send(encoding ? await body.encoded(encoding) : body.plain);
}
