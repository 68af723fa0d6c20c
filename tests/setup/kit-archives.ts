import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { zipSync } from 'fflate';
import { pack as tarPack } from 'tar-stream';
import type { Client } from './client.ts';

/** Kit archives for tests: files by path inside the kit's folder (mode 0o755 marks an executable). */
export type KitFiles = Record<string, string | Uint8Array | { body: string; mode: number }>;

const bytesOf = (v: KitFiles[string]) =>
  typeof v === 'string' ? new TextEncoder().encode(v) : v instanceof Uint8Array ? v : new TextEncoder().encode(v.body);

export function kitZip(root: string, files: KitFiles): Buffer {
  const entries: Parameters<typeof zipSync>[0] = {};
  for (const [name, value] of Object.entries(files)) {
    const mode = typeof value === 'object' && !(value instanceof Uint8Array) ? value.mode : 0o644;
    entries[`${root}/${name}`] = [bytesOf(value), { os: 3, attrs: ((0o100000 | mode) << 16) >>> 0 }];
  }
  return Buffer.from(zipSync(entries));
}

export async function kitTarGz(root: string, files: KitFiles, topFolder = root): Promise<Buffer> {
  const pack = tarPack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  pack.entry({ name: `${topFolder}/`, type: 'directory' });
  for (const [name, value] of Object.entries(files)) {
    const mode = typeof value === 'object' && !(value instanceof Uint8Array) ? value.mode : 0o644;
    pack.entry({ name: `${topFolder}/${name}`, mode }, Buffer.from(bytesOf(value)));
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

/** A multipart/form-data body as a browser sends it. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { name: string; filename: string; bytes: Buffer },
) {
  const boundary = `----kitshop${randomUUID().replace(/-/g, '')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Publishes a version through the owner API, as the console's form does. */
export async function publishVersion(
  app: FastifyInstance,
  owner: Client,
  sefId: string,
  input: { version: string; notes: string; key?: string; filename: string; bytes: Buffer },
) {
  const body = multipartBody(
    { idempotency_key: input.key ?? randomUUID(), version: input.version, notes: input.notes },
    { name: 'archive', filename: input.filename, bytes: input.bytes },
  );
  return app.inject({
    method: 'POST',
    url: `/api/admin/kits/${sefId}/versions`,
    headers: {
      cookie: [...owner.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': owner.csrf,
      'content-type': body.contentType,
    },
    payload: body.payload,
  });
}
