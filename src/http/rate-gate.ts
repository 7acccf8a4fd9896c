import { realSleep, type Sleep, type Wait, waitFor, type WaitObserver } from '../core/waits.js';
import { parseRetryAfter } from './retry.js';

export interface RateGateOptions {
  /** Cap on request starts per second (--max-rps); unlimited when absent. */
  maxRequestsPerSecond?: number;
  now: () => number;
  /** @default realSleep */
  sleep?: Sleep;
  signal: AbortSignal;
  /** Told of every wait, for the progress line. */
  waits?: WaitObserver;
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
  /** The Retry-After was further off than maxDelayMs. */
  retryAfterCapped?: boolean;
  /** The Retry-After came with a 503: the service is down, not the budget spent. */
  unavailable?: boolean;
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
    if (waitMs !== undefined) {
      report.retryAfterMs = Math.min(waitMs, maxDelayMs);
      if (waitMs > maxDelayMs) report.retryAfterCapped = true;
      if (status === 503) report.unavailable = true;
    }
  }
  return report;
}

/**
 * Paces the requests of one client. It spaces request starts for --max-rps and keeps within
 * the server's budget as X-RateLimit-Remaining tells it: once the budget is spent it sends
 * nothing until the window's reset (so a walk is never told 429). The reset is the server's
 * (X-RateLimit-Reset) or, when it gives none, learned: one request goes alone, and its 429's
 * Retry-After ends the window that began with the window's first request, which tells how long
 * a window is, so that every later window is waited out rather than asked. Every request
 * waits out a Retry-After.
 */
export class RateGate {
  private lastStart = Number.NEGATIVE_INFINITY;
  /** A Retry-After: nothing is sent before `until`. */
  private pause: Omit<Wait, 'ms'> = { cause: 'rate-limit', until: 0 };
  /** The server's count after the last request it answered; the requests in flight come off it. */
  private remaining = Number.POSITIVE_INFINITY;
  /** When the window of that count ends, if the server said (or it was learned) and it is still ahead. */
  private reset: { at: number; capped: boolean; learned?: boolean } | undefined;
  /** A whole window's budget, if the server said. */
  private limit: number | undefined;
  /** When the first request of the window being counted was sent; undefined until the next request after a reset or a 429. */
  private windowStart: number | undefined;
  /** When the first answer in that window came: after the server began the window, however long the way there took. */
  private windowAnsweredAt: number | undefined;
  /** When the first request of the window before was sent, once a learned reset has ended it. */
  private previousWindowStart: number | undefined;
  /** How long a window lasts from its first request, as learned from a 429 (see learnWindow). */
  private windowMs: number | undefined;
  /** The first 429's measure of a window, never short; what is waited once a guess has failed. */
  private measuredWindowMs: number | undefined;
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  private readonly sleep: Sleep;

  constructor(private readonly options: RateGateOptions) {
    this.sleep = options.sleep ?? realSleep;
  }

  /** Resolves when a request may start; call `release` once its answer (or failure) is in. */
  async acquire(): Promise<void> {
    for (;;) {
      const now = this.options.now();
      this.rollOver(now);
      const hold = this.holdAt(now);
      if (hold) {
        await waitFor(hold, this.sleep, this.options.signal, this.options.waits);
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
    this.windowStart ??= this.lastStart;
    this.inFlight++;
  }

  /** What holds a request back at `now`, the longest of: a Retry-After, --max-rps, a spent budget's reset. */
  private holdAt(now: number): Wait | undefined {
    const spacingMs = this.options.maxRequestsPerSecond ? 1000 / this.options.maxRequestsPerSecond : 0;
    const holds: Omit<Wait, 'ms'>[] = [this.pause, { cause: 'max-rps', until: this.lastStart + spacingMs }];
    // Spent, and the window's end is known: any request now would be a 429.
    if (this.remaining <= 0 && this.reset) holds.push({ cause: 'rate-limit', until: this.reset.at, ...(this.reset.capped ? { capped: true } : {}) });
    const longest = holds.reduce((held, hold) => (hold.until > held.until ? hold : held));
    return longest.until > now ? { ...longest, ms: longest.until - now } : undefined;
  }

  /** Takes what an answer said, as `budgetReport` read it; `{}` after a failure with no answer. */
  release(report: BudgetReport): void {
    this.inFlight--;
    const now = this.options.now();
    this.rollOver(now);
    if (this.windowStart !== undefined) this.windowAnsweredAt ??= now;
    if (report.limit !== undefined) this.limit = report.limit;
    this.count(report);
    if (report.resetAt !== undefined && report.resetAt > now && !this.isStale(report)) {
      this.reset = { at: report.resetAt, capped: report.resetCapped === true };
    }
    if (report.retryAfterMs !== undefined) {
      const until = now + report.retryAfterMs;
      if (!report.unavailable) this.learnWindow(until, report.retryAfterMs, report);
      if (until > this.pause.until) {
        this.pause = { cause: report.unavailable ? 'unavailable' : 'rate-limit', until, ...(report.retryAfterCapped ? { capped: true } : {}) };
      }
      // After the pause one request goes, even if the count says spent, to learn the new one.
      this.remaining = Math.max(this.remaining, 1);
    } else if (this.remaining <= 0 && this.reset === undefined && this.windowMs !== undefined && this.windowAnsweredAt !== undefined) {
      // Spent, and the server does not say when the window ends: as long after its first answer as a window lasts.
      this.reset = { at: this.windowAnsweredAt + this.windowMs, capped: false, learned: true };
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  /**
   * A 429's Retry-After, with no reset of the server's, ends the window its first request
   * began. Measured from that request's start, a window comes out a little long (the way
   * there), never short, but for a Retry-After in whole seconds, which rounds up by most of a
   * second. Windows being whole seconds as a rule, the measure is then taken down to its whole
   * seconds; the window's first answer, which comes after the server began the window, is what
   * it is counted from. Should a later window draw a 429 all the same, the window was learned
   * too short (by that guess, or from a first window the walk joined late, a cron job right
   * after another): it is then at least the measure, and at least as long as from the window
   * before's first request to this 429's end, which is where that window truly ended.
   */
  private learnWindow(end: number, retryAfterMs: number, report: BudgetReport): void {
    // A cut Retry-After tells nothing, and the window it would end goes on past the pause.
    if (report.retryAfterCapped) return;
    const { windowStart, previousWindowStart } = this;
    // The next request begins the next window.
    this.windowStart = undefined;
    this.windowAnsweredAt = undefined;
    this.previousWindowStart = undefined;
    if (report.resetAt !== undefined || windowStart === undefined) return;
    if (this.measuredWindowMs !== undefined) {
      // Learned too short: the window this 429 ends may be the one the last learned reset was taken to end.
      const since = previousWindowStart ?? windowStart;
      this.windowMs = Math.max(this.windowMs ?? 0, this.measuredWindowMs, end - since);
      return;
    }
    const measured = end - windowStart;
    this.measuredWindowMs = measured;
    const wholeSeconds = Math.floor(measured / 1000) * 1000;
    this.windowMs = retryAfterMs % 1000 === 0 && wholeSeconds > 0 ? wholeSeconds : measured;
  }

  private count(report: BudgetReport): void {
    if (report.remaining === undefined) {
      this.remaining--; // no count given: assume the server counted it all the same
    } else if (this.isSameWindow(report) || (this.reset?.learned && report.resetAt === undefined)) {
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
    if (this.reset.learned) this.previousWindowStart = this.windowStart;
    this.reset = undefined;
    this.windowStart = undefined;
    this.windowAnsweredAt = undefined;
  }
}
