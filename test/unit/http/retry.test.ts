import { describe, expect, it } from 'vitest';
import { HttpStatusError, MalformedResponseError, NetworkError, TimeoutError } from '../../../src/core/errors.js';
import { DEFAULT_RETRY_POLICY, isRetryable, parseRetryAfter, retryDelayMs, serverDelayMs } from '../../../src/http/retry.js';

const url = 'https://api.example.test/api/v1/fee-schedule-results';
const status = (code: number) => new HttpStatusError(code, '', url, null);

describe('isRetryable', () => {
  it('retries the documented statuses and nothing else of 4xx', () => {
    for (const code of [408, 429, 500, 502, 503, 504]) expect(isRetryable(status(code), DEFAULT_RETRY_POLICY)).toBe(true);
    for (const code of [400, 401, 403, 404, 422, 501]) expect(isRetryable(status(code), DEFAULT_RETRY_POLICY)).toBe(false);
  });
  it('retries timeouts, transient network failures and malformed bodies', () => {
    expect(isRetryable(new TimeoutError('t'), DEFAULT_RETRY_POLICY)).toBe(true);
    expect(isRetryable(new MalformedResponseError('m'), DEFAULT_RETRY_POLICY)).toBe(true);
    expect(isRetryable(new NetworkError('reset', { transient: true }), DEFAULT_RETRY_POLICY)).toBe(true);
    expect(isRetryable(new NetworkError('tls', { transient: false }), DEFAULT_RETRY_POLICY)).toBe(false);
    expect(isRetryable(new Error('bug'), DEFAULT_RETRY_POLICY)).toBe(false);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('2026', now)).toBe(2_026_000);
  });
  it('is capped at the longest wait wherever it is read (backoff and rate gate alike)', () => {
    expect(serverDelayMs('3600', DEFAULT_RETRY_POLICY, now)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
    expect(serverDelayMs('2', DEFAULT_RETRY_POLICY, now)).toBe(2000);
    expect(serverDelayMs(undefined, DEFAULT_RETRY_POLICY, now)).toBeUndefined();
    expect(serverDelayMs('soon', DEFAULT_RETRY_POLICY, now)).toBeUndefined();
  });
  it('is honoured over backoff, within the cap', () => {
    expect(retryDelayMs(1, '2', DEFAULT_RETRY_POLICY, now)).toBe(2000);
    expect(retryDelayMs(1, '3600', DEFAULT_RETRY_POLICY, now)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
  });
});

describe('backoff', () => {
  it('doubles, stays within the upper half of its ceiling, and is capped', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelayMs(1, undefined, policy, 0, () => 0)).toBe(50);
    expect(retryDelayMs(1, undefined, policy, 0, () => 1)).toBe(100);
    expect(retryDelayMs(3, undefined, policy, 0, () => 1)).toBe(400);
    expect(retryDelayMs(10, undefined, policy, 0, () => 1)).toBe(1000);
    expect(retryDelayMs(10, undefined, policy, 0, () => 0)).toBe(500);
  });
});
