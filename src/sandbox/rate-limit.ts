/** A budget of `requests` per `seconds`, in fixed windows counted from the sandbox's start. */
export interface RateLimitOptions {
  requests: number;
  seconds: number;
}

export type RateVerdict =
  | { allowed: true; remaining: number }
  | { allowed: false; remaining: 0; retryAfterSeconds: number };

/** Reported in X-RateLimit-Remaining when no limit is set. */
const UNLIMITED_REMAINING = 1_000_000;

/** Counts requests per presented key (an absent key is its own bucket). */
export class FixedWindowRateLimiter {
  private window = -1;
  private readonly used = new Map<string, number>();

  constructor(
    private readonly options: RateLimitOptions | undefined,
    private readonly startedAt: number,
  ) {}

  take(key: string, now: number): RateVerdict {
    if (this.options === undefined) return { allowed: true, remaining: UNLIMITED_REMAINING };
    const windowMs = this.options.seconds * 1000;
    const window = Math.floor((now - this.startedAt) / windowMs);
    if (window !== this.window) {
      this.window = window;
      this.used.clear();
    }
    const used = this.used.get(key) ?? 0;
    if (used >= this.options.requests) {
      const windowEnd = this.startedAt + (window + 1) * windowMs;
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)) };
    }
    this.used.set(key, used + 1);
    return { allowed: true, remaining: this.options.requests - used - 1 };
  }
}
