import { normaliseReturnPath } from './return-path.ts';
import { browserStorage, type StorageLike } from './storage.ts';

/**
 * `activationPending` in localStorage: a sign-up that came from a screen the buyer wants back
 * (the checkout), waiting for its e-mail activation. The spec's `returnPath` is spent when the
 * sign-up's redirect reaches that screen, so this remembers the way back across the mailed link:
 * the checkout tells the buyer to check their e-mail, the verified link (or a sign-in) brings them
 * back there, and the screen then says the address is verified.
 */
export const PENDING_ACTIVATION_KEY = 'activationPending';

/** Older than this, the buyer has moved on (activation links last an hour; a sign-in sends a new one). */
const LIFETIME_MS = 24 * 60 * 60 * 1000;

export type PendingActivation = { email: string; returnPath: string };

export function rememberPendingActivation(
  pending: PendingActivation,
  storage: StorageLike = browserStorage('localStorage'),
  now = Date.now(),
): void {
  const returnPath = normaliseReturnPath(pending.returnPath);
  if (!returnPath) return;
  try {
    storage.setItem(PENDING_ACTIVATION_KEY, JSON.stringify({ email: pending.email, returnPath, at: now }));
  } catch {
    // storage full or refused: the buyer finds their way back as the spec has it
  }
}

/** The pending sign-up, or null when there is none, it is malformed or a day old. */
export function readPendingActivation(
  storage: StorageLike = browserStorage('localStorage'),
  now = Date.now(),
): PendingActivation | null {
  try {
    const value = JSON.parse(storage.getItem(PENDING_ACTIVATION_KEY) ?? 'null') as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { email, returnPath, at } = value as Record<string, unknown>;
    const path = typeof returnPath === 'string' ? normaliseReturnPath(returnPath) : null;
    if (typeof email !== 'string' || !path || typeof at !== 'number' || !(now - at < LIFETIME_MS) || at > now)
      return null;
    return { email, returnPath: path };
  } catch {
    return null;
  }
}

export function clearPendingActivation(storage: StorageLike = browserStorage('localStorage')): void {
  try {
    storage.removeItem(PENDING_ACTIVATION_KEY);
  } catch {
    // nothing to clear
  }
}

/** The pending sign-up (see readPendingActivation), taken out of storage. */
export function takePendingActivation(
  storage: StorageLike = browserStorage('localStorage'),
  now = Date.now(),
): PendingActivation | null {
  const pending = readPendingActivation(storage, now);
  clearPendingActivation(storage);
  return pending;
}
