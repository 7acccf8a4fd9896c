import { setTimeout as sleep } from 'node:timers/promises';

export interface RateGateOptions {
  /** Cap on request starts per second (--max-rps); unlimited when absent. */
  maxRequestsPerSecond?: number;
  now: () => number;
  signal: AbortSignal;
}

/**
 * Paces the requests of one client. It spaces request starts for --max-rps, stops sending
 * when the server's X-RateLimit-Remaining says the budget is spent (rather than waiting to be
 * told 429), and holds every request while a Retry-After is running.
 */
export class RateGate {
  private lastStart = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  /** The budget left by the server's last word, less what has been sent since. */
  private remaining = Number.POSITIVE_INFINITY;
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: RateGateOptions) {}

  /** Resolves when a request may start; call `release` once its response (or failure) is in. */
  async acquire(): Promise<void> {
    const spacingMs = this.options.maxRequestsPerSecond ? 1000 / this.options.maxRequestsPerSecond : 0;
    for (;;) {
      const now = this.options.now();
      const wait = Math.max(this.pausedUntil - now, this.lastStart + spacingMs - now);
      if (wait > 0) {
        await sleep(wait, undefined, { signal: this.options.signal });
        continue;
      }
      // Budget spent: let the requests in flight report the server's count; with none left,
      // one request goes out alone to learn when the window reopens.
      if (this.remaining <= 0 && this.inFlight > 0) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
        continue;
      }
      break;
    }
    this.lastStart = this.options.now();
    this.remaining--;
    this.inFlight++;
  }

  /** Takes what a response says about the budget: X-RateLimit-Remaining, and Retry-After on 429/503. */
  release(report: { remaining?: number; retryAfterMs?: number }): void {
    this.inFlight--;
    if (report.remaining !== undefined) this.remaining = report.remaining - this.inFlight;
    if (report.retryAfterMs !== undefined) {
      this.pausedUntil = Math.max(this.pausedUntil, this.options.now() + report.retryAfterMs);
      this.remaining = Math.max(this.remaining, 1);
    }
    for (const wake of this.waiters.splice(0)) wake();
  }
}
