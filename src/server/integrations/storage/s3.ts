import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../../config.ts';
import { isStorageKey, type RemoteStorage, SIGNED_URL_SECONDS, type StorageArea } from './storage.ts';

type S3Settings = NonNullable<Config['s3']>;

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
};

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey');

/**
 * S3-compatible object storage (AWS S3, Cloudflare R2, MinIO, ...). Public media live under
 * `public/`, kit archives under `private/`; the bucket itself stays private. Archives reach their
 * owner through a signed GET that expires in SIGNED_URL_SECONDS and names the file to save.
 */
export function createS3Storage(settings: S3Settings, client = createS3Client(settings)): RemoteStorage {
  const { bucket } = settings;
  const objectKey = (area: StorageArea, key: string) => {
    if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return `${area}/${key}`;
  };
  const has = async (Key: string) => {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  };
  const putOnce = async (Key: string, body: () => Promise<Uint8Array>, ContentType: string) => {
    if (await has(Key)) return;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: await body(), ContentType }));
  };
  const contentType = (area: StorageArea, key: string) =>
    area === 'private'
      ? 'application/zip'
      : (MEDIA_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream');
  return {
    async *listObjects() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const [area, ...rest] = (object.Key ?? '').split('/');
          const key = rest.join('/');
          if ((area === 'public' || area === 'private') && isStorageKey(key)) yield { area, key };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async readObject(area, key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(area, key) }));
        return await object.Body!.transformToByteArray();
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    writeObject: (area, key, bytes) => putOnce(objectKey(area, key), async () => bytes, contentType(area, key)),
    putPublicFile: async (key, sourceFile) =>
      putOnce(objectKey('public', key), () => fs.readFile(sourceFile), contentType('public', key)),
    async readPublic(key) {
      if (!isStorageKey(key)) return null;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey('public', key) }));
        return {
          body: object.Body as Readable,
          size: object.ContentLength,
          contentType: object.ContentType,
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    putPrivate: async (key, bytes) =>
      putOnce(objectKey('private', key), async () => bytes, contentType('private', key)),
    async putPrivateFile(key, sourceFile, ContentType) {
      const Key = objectKey('private', key);
      if (await has(Key)) return;
      const { size } = await fs.stat(sourceFile);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key,
          Body: createReadStream(sourceFile),
          ContentLength: size,
          ContentType,
        }),
      );
    },
    async readPrivateStream(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey('private', key) }));
        return object.Body as Readable;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async deletePrivate(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey('private', key) }));
    },
    async privateDownload(key, as) {
      const Key = objectKey('private', key);
      if (!(await has(Key))) return null;
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key,
        ResponseContentDisposition: `attachment; filename="${as.filename}"`,
        ResponseContentType: as.contentType,
      });
      const url = await getSignedUrl(client, command, { expiresIn: SIGNED_URL_SECONDS });
      return { kind: 'redirect', url, expiresInSeconds: SIGNED_URL_SECONDS };
    },
  };
}

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Path-style addressing works with every S3-compatible server, whatever its DNS.
    forcePathStyle: true,
    // Checksums only where S3 requires them: several S3-compatible servers reject the newer headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
