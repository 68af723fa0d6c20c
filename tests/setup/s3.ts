import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export type TestS3 = {
  endpoint: string;
  bucket: string;
  /** The `S3_*` settings that point the shop at this server. */
  env: Record<string, string>;
  stop: () => Promise<void>;
};

/**
 * A real S3-compatible server (s3rver) on a free loopback port, with one empty bucket. It checks
 * signatures (header and presigned-query, including expiry) with the key pair S3RVER/S3RVER.
 */
export async function startTestS3(bucket = 'kitshop-test'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'kitshop-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_REGION: 'us-east-1',
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
