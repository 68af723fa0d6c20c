import { describe, expect, it } from 'vitest';
import { ANALYTICS_CONSENT_KEY } from '../../common/constants.ts';
import { consentExpiry, deleteAnalyticsCookies, readConsent, saveConsent } from './consent.ts';
import { memoryStorage, refusingStorage } from './storage-doubles.ts';

const DAY = 86_400_000;

describe('the analytics choice', () => {
  it('is remembered for 6 months, then asked again', () => {
    const { storage } = memoryStorage();
    const at = Date.UTC(2026, 0, 15, 12);
    saveConsent('granted', storage, at);
    expect(readConsent(storage, at + DAY)).toBe('granted');
    expect(consentExpiry(at)).toBe(Date.UTC(2026, 6, 15, 12));
    expect(readConsent(storage, Date.UTC(2026, 6, 15, 11))).toBe('granted');
    expect(readConsent(storage, Date.UTC(2026, 6, 15, 12))).toBeNull();
    saveConsent('denied', storage, at);
    expect(readConsent(storage, at)).toBe('denied');
  });

  it('reads nothing from a missing, broken or refused storage, or a date in the future', () => {
    expect(readConsent(memoryStorage().storage)).toBeNull();
    expect(readConsent(memoryStorage({ [ANALYTICS_CONSENT_KEY]: '{' }).storage)).toBeNull();
    expect(readConsent(memoryStorage({ [ANALYTICS_CONSENT_KEY]: '{"choice":"yes","at":1}' }).storage)).toBeNull();
    expect(readConsent(refusingStorage)).toBeNull();
    const { storage } = memoryStorage();
    saveConsent('granted', storage, Date.now() + 10 * DAY);
    expect(readConsent(storage)).toBeNull();
    expect(() => saveConsent('granted', refusingStorage)).not.toThrow();
  });

  it('withdrawing expires the _ga cookies on the host and its parent domains, and no other cookie', () => {
    const written: string[] = [];
    const doc = {
      get cookie() {
        return '_ga=GA1.1; _ga_ABC123=GS1.1; kitshop_csrf=x; _gid=1; cart_note=1';
      },
      set cookie(value: string) {
        written.push(value);
      },
    };
    deleteAnalyticsCookies(doc, 'shop.example.com');
    const names = new Set(written.map((w) => w.split('=')[0]));
    expect(names).toEqual(new Set(['_ga', '_ga_ABC123', '_gid']));
    expect(written).toContain('_ga=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/');
    expect(written).toContain('_ga=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; domain=.example.com');
    expect(written).toContain('_ga=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; domain=.shop.example.com');
  });
});
