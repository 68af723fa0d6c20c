import { describe, expect, it } from 'vitest';
import {
  PENDING_ACTIVATION_KEY,
  readPendingActivation,
  rememberPendingActivation,
  takePendingActivation,
} from './pending-activation.ts';
import { memoryStorage, refusingStorage as refusing } from './storage-doubles.ts';

const HOUR = 60 * 60 * 1000;

describe('pending activation', () => {
  it('remembers the address and the screen to come back to, for a day', () => {
    const { storage } = memoryStorage();
    rememberPendingActivation({ email: 'ada@example.com', returnPath: '/checkout' }, storage, 1_000);
    expect(readPendingActivation(storage, 1_000 + 23 * HOUR)).toEqual({
      email: 'ada@example.com',
      returnPath: 'checkout',
    });
    expect(readPendingActivation(storage, 1_000 + 24 * HOUR)).toBeNull();
  });

  it('is taken once', () => {
    const { storage, data } = memoryStorage();
    rememberPendingActivation({ email: 'ada@example.com', returnPath: 'checkout' }, storage, 5);
    expect(takePendingActivation(storage, 6)).toEqual({ email: 'ada@example.com', returnPath: 'checkout' });
    expect(data.has(PENDING_ACTIVATION_KEY)).toBe(false);
    expect(takePendingActivation(storage, 7)).toBeNull();
  });

  it('keeps no unsafe way back and reads anything malformed as none', () => {
    const { storage, data } = memoryStorage();
    rememberPendingActivation({ email: 'ada@example.com', returnPath: '//evil.example' }, storage, 5);
    expect(data.size).toBe(0);
    for (const stored of [
      'not json',
      '"checkout"',
      JSON.stringify({ email: 'a@b.c', returnPath: '//evil.example', at: 5 }),
      JSON.stringify({ email: 1, returnPath: 'checkout', at: 5 }),
      JSON.stringify({ email: 'a@b.c', returnPath: 'checkout', at: 'yesterday' }),
      JSON.stringify({ email: 'a@b.c', returnPath: 'checkout', at: 50 }),
    ]) {
      data.set(PENDING_ACTIVATION_KEY, stored);
      expect(readPendingActivation(storage, 10)).toBeNull();
    }
  });

  it('treats a storage that refuses access as empty', () => {
    rememberPendingActivation({ email: 'a@b.c', returnPath: 'checkout' }, refusing);
    expect(takePendingActivation(refusing)).toBeNull();
  });
});
