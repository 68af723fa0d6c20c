import { describe, expect, it } from 'vitest';
import { rateLimitWaitSeconds, toGithubError } from './github.ts';

describe('GitHub failures', () => {
  it('reads the wait of a rate limit: retry-after first, then x-ratelimit-reset when none remain', () => {
    expect(rateLimitWaitSeconds(403, { 'retry-after': '30' })).toBe(30);
    expect(rateLimitWaitSeconds(429, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1100' }, 1_000_000)).toBe(
      100,
    );
    expect(rateLimitWaitSeconds(429, {})).toBe(60);
    // A 403 that is not a rate limit (no permission) is not retried.
    expect(rateLimitWaitSeconds(403, { 'x-ratelimit-remaining': '4999' })).toBeUndefined();
    expect(rateLimitWaitSeconds(502, { 'retry-after': '5' })).toBeUndefined();
  });

  it('tells retryable failures (5xx, network, rate limits) from final ones (404, 422, 401)', () => {
    const answer = (status: number, headers = {}) =>
      toGithubError({ status, message: 'x', response: { headers, data: { message: 'Nope' } } });
    expect(answer(502)).toMatchObject({ retryable: true, status: 502 });
    expect(answer(403, { 'retry-after': '9' })).toMatchObject({ retryable: true, retryAfterSeconds: 9 });
    expect(answer(422)).toMatchObject({ retryable: false });
    expect(answer(404)).toMatchObject({ retryable: false });
    expect(answer(401)).toMatchObject({ retryable: false });
    expect(toGithubError(new TypeError('fetch failed'))).toMatchObject({ retryable: true, status: undefined });
  });
});
