import { setTimeout as sleep } from 'node:timers/promises';
import { parseRetryAfter } from './retry.js';

export interface RateGateOptions {
  /** Cap on request starts per second (--max-rps); unlimited when absent. */
  maxRequestsPerSecond?: number;
  now: () => number;
  signal: AbortSignal;
}

/** What one answer says about the rate budget (see `budgetReport`); `{}` when there was no answer. */
export interface BudgetReport {
  /** X-RateLimit-Remaining: requests the window has left after this one. */
  remaining?: number;
  /** X-RateLimit-Limit, else RateLimit-Limit: a whole window's budget. */
  limit?: number;
  /**
   * When the window this answer was counted in ends, on the clock of budgetReport's `now`
   * (X-RateLimit-Reset, else RateLimit-Reset). May be past; at most `now + maxDelayMs`.
   */
  resetAt?: number;
  /** The server's reset was further off than maxDelayMs, so `resetAt` is only how long to hold. */
  resetCapped?: boolean;
  /** A 429's or 503's Retry-After, in milliseconds, at most maxDelayMs. */
  retryAfterMs?: number;
}

/** Epoch seconds are about 1.7e9; no server means a window 30 years long. */
const EPOCH_SECONDS_FROM = 1e9;
/**
 * Resets this close belong to one window: a delta-seconds reset is whole seconds, so two
 * answers of one window may name ends up to a second apart.
 */
const SAME_WINDOW_MS = 1000;

/**
 * One value of a header, or undefined when it is absent or repeated with different values
 * (which of them would be the truth?). Names are lower-case, as Node gives them.
 */
function single(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  if (!Array.isArray(value)) return value?.trim();
  return value.length > 0 && value.every((item) => item === value[0]) ? value[0]?.trim() : undefined;
}

/** A non-negative decimal number, or undefined; no signs, exponents, hex or spaces inside. */
function decimal(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,20}(\.\d{1,9})?$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Reads what an answer says about the rate budget. Every byte is the server's: values that
 * are absent, malformed, negative, repeated with different values, or not numbers are left
 * out, and waits are capped at `maxDelayMs`, so a bogus far-future reset cannot hang a cron
 * job (the gate holds that long, then lets one request find out).
 */
export function budgetReport(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  now: number,
  maxDelayMs: number,
): BudgetReport {
  const report: BudgetReport = {};
  const remaining = decimal(single(headers, 'x-ratelimit-remaining'));
  if (remaining !== undefined && Number.isSafeInteger(remaining)) report.remaining = remaining;
  const limit = decimal(single(headers, 'x-ratelimit-limit') ?? single(headers, 'ratelimit-limit'));
  if (limit !== undefined && Number.isSafeInteger(limit) && limit > 0) report.limit = limit;

  // X-RateLimit-Reset is epoch seconds at GitHub and many others, delta seconds elsewhere;
  // the IETF draft's RateLimit-Reset is always delta seconds.
  const xReset = decimal(single(headers, 'x-ratelimit-reset'));
  const deltaReset = decimal(single(headers, 'ratelimit-reset'));
  let resetAt: number | undefined;
  if (xReset !== undefined) resetAt = xReset > EPOCH_SECONDS_FROM ? xReset * 1000 : now + xReset * 1000;
  else if (deltaReset !== undefined) resetAt = now + deltaReset * 1000;
  if (resetAt !== undefined && Number.isFinite(resetAt)) {
    report.resetAt = Math.min(resetAt, now + maxDelayMs);
    if (resetAt > now + maxDelayMs) report.resetCapped = true;
  }

  if (status === 429 || status === 503) {
    const retryAfter = single(headers, 'retry-after');
    const waitMs = retryAfter === undefined ? undefined : parseRetryAfter(retryAfter, now);
    if (waitMs !== undefined) report.retryAfterMs = Math.min(waitMs, maxDelayMs);
  }
  return report;
}

/**
 * Paces the requests of one client. It spaces request starts for --max-rps and keeps within
 * the server's budget as X-RateLimit-Remaining tells it: once the budget is spent it sends
 * nothing until the reset the server gave (so a walk is never told 429), and only when the
 * server gives none does one request go alone to learn, from its 429's Retry-After, when the
 * window reopens. Every request waits out a Retry-After.
 */
export class RateGate {
  private lastStart = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  /** The server's count after the last request it answered; the requests in flight come off it. */
  private remaining = Number.POSITIVE_INFINITY;
  /** When the window of that count ends, if the server said and it is still ahead. */
  private reset: { at: number; capped: boolean } | undefined;
  /** A whole window's budget, if the server said. */
  private limit: number | undefined;
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: RateGateOptions) {}

  /** Resolves when a request may start; call `release` once its answer (or failure) is in. */
  async acquire(): Promise<void> {
    const spacingMs = this.options.maxRequestsPerSecond ? 1000 / this.options.maxRequestsPerSecond : 0;
    for (;;) {
      const now = this.options.now();
      this.rollOver(now);
      let wait = Math.max(this.pausedUntil - now, this.lastStart + spacingMs - now);
      // Spent, and the server said when the window reopens: any request now would be a 429.
      if (this.remaining <= 0 && this.reset) wait = Math.max(wait, this.reset.at - now);
      if (wait > 0) {
        await sleep(wait, undefined, { signal: this.options.signal });
        continue;
      }
      // Spent as far as we know: the answers in flight will tell us more. With none in flight
      // and no reset known, this one request goes alone to learn when the window reopens.
      if (this.remaining - this.inFlight <= 0 && this.inFlight > 0) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
        continue;
      }
      break;
    }
    this.lastStart = this.options.now();
    this.inFlight++;
  }

  /** Takes what an answer said, as `budgetReport` read it; `{}` after a failure with no answer. */
  release(report: BudgetReport): void {
    this.inFlight--;
    const now = this.options.now();
    this.rollOver(now);
    if (report.limit !== undefined) this.limit = report.limit;
    this.count(report);
    if (report.resetAt !== undefined && report.resetAt > now && !this.isStale(report)) {
      this.reset = { at: report.resetAt, capped: report.resetCapped === true };
    }
    if (report.retryAfterMs !== undefined) {
      this.pausedUntil = Math.max(this.pausedUntil, now + report.retryAfterMs);
      // After the pause one request goes, even if the count says spent, to learn the new one.
      this.remaining = Math.max(this.remaining, 1);
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  private count(report: BudgetReport): void {
    if (report.remaining === undefined) {
      this.remaining--; // no count given: assume the server counted it all the same
    } else if (this.isSameWindow(report)) {
      // Answers can overtake each other; within a window the count only falls.
      this.remaining = Math.min(this.remaining, report.remaining);
    } else if (!this.isStale(report)) {
      this.remaining = report.remaining;
    }
  }

  /** Both this answer and the count we hold name (uncapped) the same window end. */
  private isSameWindow(report: BudgetReport): boolean {
    return (
      this.reset !== undefined &&
      !this.reset.capped &&
      report.resetAt !== undefined &&
      !report.resetCapped &&
      Math.abs(report.resetAt - this.reset.at) < SAME_WINDOW_MS
    );
  }

  /** An answer counted in a window that ended before the one we hold a count of. */
  private isStale(report: BudgetReport): boolean {
    const held = this.reset;
    return held !== undefined && !held.capped && report.resetAt !== undefined && report.resetAt <= held.at - SAME_WINDOW_MS;
  }

  /**
   * Past the reset, the window is new: its whole budget, when the server gave it, goes at
   * once (a round trip sooner than asking first, and the last window's round trip is on the
   * walk's clock). Otherwise, or when the reset was capped and may not be one at all, one
   * request goes first to learn what is left.
   */
  private rollOver(now: number): void {
    if (this.reset === undefined || now < this.reset.at) return;
    this.remaining = Math.max(this.remaining, this.reset.capped ? 1 : (this.limit ?? 1));
    this.reset = undefined;
  }
}
