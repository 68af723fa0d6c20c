import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPaddleBody, verifyPaddleSignature } from './signature.ts';

// A vector built by hand from Paddle's documented scheme: h1 = HMAC-SHA256(secret, "<ts>:<raw body>").
const secret = 'pdl_ntfset_01h8mxy5d7abcdefghjkmnpqrs_abcdefghijklmnopqrstuvwx';
const body = '{"event_id":"evt_01h8","event_type":"transaction.completed","data":{"id":"txn_01"}}';
const ts = 1_700_000_000;
const h1 = createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex');

describe('Paddle signatures', () => {
  it('signs exactly as Paddle documents', () => {
    expect(signPaddleBody(body, secret, ts)).toBe(`ts=${ts};h1=${h1}`);
  });

  it('accepts a valid signature within 5 seconds, and any of several h1 values', () => {
    expect(verifyPaddleSignature(body, `ts=${ts};h1=${h1}`, secret, ts + 5)).toEqual({ ok: true });
    expect(verifyPaddleSignature(body, `ts=${ts};h1=${'0'.repeat(64)};h1=${h1}`, secret, ts)).toEqual({ ok: true });
  });

  it.each([
    ['a missing header', undefined, ts],
    ['a malformed header', 'nonsense', ts],
    ['a tampered body', `ts=${ts};h1=${createHmac('sha256', secret).update(`${ts}:${body} `).digest('hex')}`, ts],
    ['another secret', `ts=${ts};h1=${createHmac('sha256', 'other').update(`${ts}:${body}`).digest('hex')}`, ts],
    ['a stale timestamp', `ts=${ts};h1=${h1}`, ts + 6],
    ['a future timestamp', `ts=${ts};h1=${h1}`, ts - 6],
    ['a short h1', `ts=${ts};h1=abc`, ts],
  ])('refuses %s', (_label, header, now) => {
    expect(verifyPaddleSignature(body, header, secret, now).ok).toBe(false);
  });
});
