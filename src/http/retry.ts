import { HttpStatusError, MalformedResponseError, NetworkError, TimeoutError } from '../core/errors.js';

/** How the one HTTP client retries a request. */
export interface RetryPolicy {
  /**
   * Retries after the first try; a request is sent at most `retries + 1` times.
   * @default 4
   */
  retries: number;
  /**
   * Delay before the first retry, in milliseconds; doubled for each further retry.
   * @default 250
   */
  baseDelayMs: number;
  /**
   * The longest wait between two tries, in milliseconds, `Retry-After` included.
   * @default 30000
   */
  maxDelayMs: number;
  /**
   * HTTP statuses worth another try.
   * @default [408, 429, 500, 502, 503, 504]
   */
  retryStatuses: readonly number[];
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 4,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  retryStatuses: [408, 429, 500, 502, 503, 504],
};

/** Timeouts, connection failures, cut or non-JSON bodies, and the listed statuses. */
export function isRetryable(error: unknown, policy: RetryPolicy): boolean {
  if (error instanceof HttpStatusError) return policy.retryStatuses.includes(error.status);
  if (error instanceof NetworkError) return error.transient;
  return error instanceof TimeoutError || error instanceof MalformedResponseError;
}

/**
 * Milliseconds to wait before retry number `retry` (1-based): the server's `Retry-After` when
 * it gave one, else capped exponential backoff, jittered over its upper half.
 */
export function retryDelayMs(
  retry: number,
  retryAfter: string | undefined,
  policy: RetryPolicy,
  now: number,
  random: () => number = Math.random,
): number {
  const serverDelay = serverDelayMs(retryAfter, policy, now);
  if (serverDelay !== undefined) return serverDelay;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The server's `Retry-After` in milliseconds from now, within the policy's longest wait. */
export function serverDelayMs(retryAfter: string | undefined, policy: RetryPolicy, now: number): number | undefined {
  const delay = retryAfter === undefined ? undefined : parseRetryAfter(retryAfter, now);
  return delay === undefined ? undefined : Math.min(delay, policy.maxDelayMs);
}

/**
 * `Retry-After` in seconds or as an HTTP date, in milliseconds from now; undefined when it is
 * neither. The server's text: no signs, exponents or bare years, which Date.parse would take.
 */
export function parseRetryAfter(value: string, now: number): number | undefined {
  const trimmed = value.trim();
  if (/^\d{1,20}(\.\d{1,9})?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date (all three of RFC 9110's forms) begins with the day's name.
  const date = /^[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
