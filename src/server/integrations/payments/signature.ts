import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/** Paddle's tolerance is configurable; the shop refuses a timestamp more than 5 s from its clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 5;

/** `Paddle-Signature: ts=<unix>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">`, as Paddle sends it. */
export function signPaddleBody(rawBody: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const h1 = createHmac('sha256', secret).update(`${timestamp}:${rawBody}`).digest('hex');
  return `ts=${timestamp};h1=${h1}`;
}

/** The secret as a key object, made once: `createHmac` with a string imports the key on every call. */
let secretKey: { secret: string; key: KeyObject } | undefined;
function keyOf(secret: string): KeyObject {
  if (secretKey?.secret !== secret) secretKey = { secret, key: createSecretKey(Buffer.from(secret)) };
  return secretKey.key;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks a Paddle-Signature header against the raw body: every `h1` is tried (Paddle sends
 * several while a secret is rotated), compared in constant time; an old or future timestamp fails.
 */
export function verifyPaddleSignature(
  rawBody: string,
  header: string | undefined,
  secret: string,
  now = Math.floor(Date.now() / 1000),
): SignatureCheck {
  if (!header) return { ok: false, reason: 'The Paddle-Signature header is missing.' };
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(';')) {
    const [key, value] = part.split('=', 2).map((s) => s.trim());
    if (key === 'ts') timestamp = value;
    else if (key === 'h1' && value) signatures.push(value);
  }
  if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0) {
    return { ok: false, reason: 'The Paddle-Signature header is malformed.' };
  }
  if (Math.abs(now - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) {
    return { ok: false, reason: 'The signature timestamp is too old or in the future.' };
  }
  // Signed text `<ts>:<raw body>`, fed in two parts rather than copied into one string.
  const expected = createHmac('sha256', keyOf(secret)).update(`${timestamp}:`).update(rawBody).digest();
  const matches = signatures.some((signature) => {
    if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
    return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
  });
  return matches ? { ok: true } : { ok: false, reason: 'The signature does not match.' };
}
