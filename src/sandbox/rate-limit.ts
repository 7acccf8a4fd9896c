import { RATE_LIMIT_REMAINING_HEADER } from '../api/paths.js';
import type { ServiceShape } from '../api/record-id.js';

/** A budget of `requests` per `seconds`, in fixed windows aligned to the clock. */
export interface RateLimitOptions {
  requests: number;
  seconds: number;
}

/** When `--rate` is on: the window's whole budget, and when the window ends (epoch seconds). */
interface WindowFacts {
  limit: number;
  resetEpochSeconds: number;
}

export type RateVerdict =
  | ({ allowed: true; remaining: number } & Partial<WindowFacts>)
  | ({ allowed: false; remaining: 0; retryAfterSeconds: number } & WindowFacts);

/** Reported in X-RateLimit-Remaining when no limit is set. */
const UNLIMITED_REMAINING = 1_000_000;

/**
 * Counts requests per presented key (an absent key is its own bucket). Window k covers
 * [k·W, (k+1)·W) in epoch milliseconds, as common fixed-window limiters count, so a window's
 * end is the same for every key and every sandbox, and is a whole number of epoch seconds.
 */
export class FixedWindowRateLimiter {
  private window = -1;
  private readonly used = new Map<string, number>();

  constructor(private readonly options: RateLimitOptions | undefined) {}

  take(key: string, now: number): RateVerdict {
    if (this.options === undefined) return { allowed: true, remaining: UNLIMITED_REMAINING };
    const windowMs = this.options.seconds * 1000;
    const window = Math.floor(now / windowMs);
    if (window !== this.window) {
      this.window = window;
      this.used.clear();
    }
    const windowEnd = (window + 1) * windowMs;
    const facts: WindowFacts = { limit: this.options.requests, resetEpochSeconds: windowEnd / 1000 };
    const used = this.used.get(key) ?? 0;
    if (used >= this.options.requests) {
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)), ...facts };
    }
    this.used.set(key, used + 1);
    return { allowed: true, remaining: this.options.requests - used - 1, ...facts };
  }
}

/**
 * The budget headers of a response. The service document gives only X-RateLimit-Remaining;
 * X-RateLimit-Limit and X-RateLimit-Reset (epoch seconds, as GitHub sends it) are the common
 * convention, sent only when `--rate` sets a window for them to describe. The 2026 edition
 * sends all three on every response: with no window set, the limit is what Remaining
 * reports and the reset is the end of the current minute.
 */
export function rateLimitHeaders(verdict: RateVerdict, shape: ServiceShape = 'interface', now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = { [RATE_LIMIT_REMAINING_HEADER]: String(verdict.remaining) };
  const limit = verdict.limit ?? (shape === '2026' ? UNLIMITED_REMAINING : undefined);
  const reset = verdict.resetEpochSeconds ?? (shape === '2026' ? (Math.floor(now / 60_000) + 1) * 60 : undefined);
  if (limit !== undefined) headers['x-ratelimit-limit'] = String(limit);
  if (reset !== undefined) headers['x-ratelimit-reset'] = String(reset);
  return headers;
}
