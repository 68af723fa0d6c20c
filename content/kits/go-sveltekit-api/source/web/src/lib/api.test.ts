import { describe, expect, it } from 'vitest';
import { toApiError } from './api';

describe('toApiError', () => {
  it("keeps the API's error code and message", () => {
    const error = toApiError(429, { error: { code: 'rate_limited', message: 'Rate limit exceeded, retry after 1s' } });
    expect(error.code).toBe('rate_limited');
    expect(error.message).toBe('Rate limit exceeded, retry after 1s');
  });

  it('calls an answer without the error shape a network error (the API is not running)', () => {
    const error = toApiError(500, null);
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/^Network error/);
  });
});
