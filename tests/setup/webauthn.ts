import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software authenticator for integration tests: it makes real P-256 credentials and signs real
 * WebAuthn answers (attestation "none"), so the server's verifier runs untouched. The browser's
 * part (clientDataJSON with the challenge and origin) is built here as a browser would.
 */
export function createSoftAuthenticator(origin: string) {
  const rpIdHash = createHash('sha256').update(new URL(origin).hostname).digest();
  const credentials: { id: Buffer; privateKey: KeyObject; counter: number; userHandle: string }[] = [];
  const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
  const clientData = (type: string, challenge: string, at = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: at, crossOrigin: false }));

  return {
    /** The browser's answer to `navigator.credentials.create` for these options. */
    register(options: { challenge: string; user: { id: string } }, overrides: { origin?: string } = {}) {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const id = randomBytes(16);
      credentials.push({ id, privateKey, counter: 0, userHandle: options.user.id });
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, isoBase64URL.toBuffer(jwk.x!)],
          [-3, isoBase64URL.toBuffer(jwk.y!)],
        ]),
      );
      const length = Buffer.alloc(2);
      length.writeUInt16BE(id.length);
      // Flags: user present, user verified, attested credential data.
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([0x45]),
        Buffer.alloc(4),
        Buffer.alloc(16),
        length,
        id,
        cose,
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', authData],
        ]),
      );
      return {
        id: b64(id),
        rawId: b64(id),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64(clientData('webauthn.create', options.challenge, overrides.origin)),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
      };
    },
    /** The browser's answer to `navigator.credentials.get` (the newest credential unless told). */
    authenticate(
      options: { challenge: string },
      overrides: { origin?: string; credential?: number; badSignature?: boolean; counter?: number } = {},
    ) {
      const credential = credentials[overrides.credential ?? credentials.length - 1]!;
      credential.counter = overrides.counter ?? credential.counter + 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.counter);
      const authData = Buffer.concat([rpIdHash, Buffer.from([0x05]), counter]);
      const data = clientData('webauthn.get', options.challenge, overrides.origin);
      let signature = sign(
        'sha256',
        Buffer.concat([authData, createHash('sha256').update(data).digest()]),
        credential.privateKey,
      );
      if (overrides.badSignature) signature = Buffer.from(signature.map((byte, i) => (i === 10 ? byte ^ 1 : byte)));
      return {
        id: b64(credential.id),
        rawId: b64(credential.id),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64(data),
          authenticatorData: b64(authData),
          signature: b64(signature),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}
