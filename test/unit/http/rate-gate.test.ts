import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sleep } from '../../../src/core/waits.js';
import { budgetReport, RateGate } from '../../../src/http/rate-gate.js';
import { FixedWindowRateLimiter, rateLimitHeaders } from '../../../src/sandbox/rate-limit.js';

/** The gate's sleep on the global setTimeout, which vitest's fake timers drive (node:timers/promises, the gate's own, they do not reach). */
const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => (clearTimeout(timer), reject(signal.reason));
    const timer = setTimeout(() => (signal.removeEventListener('abort', onAbort), resolve()), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

const settle = () => new Promise((resolve) => setImmediate(resolve));
const MAX_DELAY_MS = 30_000;

function gate() {
  return new RateGate({ now: () => 0, sleep, signal: new AbortController().signal });
}

/** Whether `promise` has settled, without waiting for it. */
async function isDone(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await settle();
  return done;
}

describe('budgetReport', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  const read = (headers: Record<string, string | string[] | undefined>, status = 200) => budgetReport(status, headers, now, MAX_DELAY_MS);

  it('reads X-RateLimit-Remaining, and leaves out what is not a count', () => {
    expect(read({ 'x-ratelimit-remaining': '7' })).toEqual({ remaining: 7 });
    expect(read({ 'x-ratelimit-remaining': ['3', '3'] })).toEqual({ remaining: 3 });
    for (const bad of ['-1', 'NaN', '1e3', '0x10', '', '2.5', '5, 4', '99999999999999999999', 'Infinity']) {
      expect(read({ 'x-ratelimit-remaining': bad })).toEqual({});
    }
    expect(read({ 'x-ratelimit-remaining': ['3', '4'] })).toEqual({});
    expect(read({})).toEqual({});
  });

  it('reads X-RateLimit-Limit, else RateLimit-Limit, as a positive count', () => {
    expect(read({ 'x-ratelimit-limit': '20' })).toEqual({ limit: 20 });
    expect(read({ 'ratelimit-limit': '30' })).toEqual({ limit: 30 });
    expect(read({ 'x-ratelimit-limit': '20', 'ratelimit-limit': '30' })).toEqual({ limit: 20 });
    for (const bad of ['0', '-1', '1.5', 'many', '99999999999999999999']) expect(read({ 'x-ratelimit-limit': bad })).toEqual({});
  });

  it('reads X-RateLimit-Reset as epoch seconds when large, else as seconds from now', () => {
    expect(read({ 'x-ratelimit-reset': String(now / 1000 + 2) })).toEqual({ resetAt: now + 2000 });
    expect(read({ 'x-ratelimit-reset': '2' })).toEqual({ resetAt: now + 2000 });
    expect(read({ 'x-ratelimit-reset': '0.5' })).toEqual({ resetAt: now + 500 });
    // A past reset is kept: the gate tells an answer of an earlier window by it.
    expect(read({ 'x-ratelimit-reset': String(now / 1000 - 2) })).toEqual({ resetAt: now - 2000 });
  });

  it('reads RateLimit-Reset as seconds from now, X-RateLimit-Reset first', () => {
    expect(read({ 'ratelimit-reset': '3' })).toEqual({ resetAt: now + 3000 });
    expect(read({ 'ratelimit-reset': '3', 'x-ratelimit-reset': '1' })).toEqual({ resetAt: now + 1000 });
  });

  it('caps a far-off reset at the longest wait, and says so', () => {
    expect(read({ 'x-ratelimit-reset': '99999999999' })).toEqual({ resetAt: now + MAX_DELAY_MS, resetCapped: true });
    expect(read({ 'ratelimit-reset': '86400' })).toEqual({ resetAt: now + MAX_DELAY_MS, resetCapped: true });
  });

  it('ignores a malformed reset', () => {
    for (const bad of ['-5', 'soon', 'NaN', 'Infinity', '1e12', '', '1, 2']) {
      expect(read({ 'x-ratelimit-reset': bad, 'ratelimit-reset': bad })).toEqual({});
    }
    expect(read({ 'x-ratelimit-reset': ['1', '2'] })).toEqual({});
  });

  it('reads Retry-After, in seconds or as an HTTP date, on 429 and 503 only, and says a 503 is the service down', () => {
    expect(read({ 'retry-after': '3' }, 429)).toEqual({ retryAfterMs: 3000 });
    expect(read({ 'retry-after': 'Sat, 21 Nov 2026 12:00:05 GMT' }, 503)).toEqual({ retryAfterMs: 5000, unavailable: true });
    expect(read({ 'retry-after': 'Sat, 21 Nov 2026 11:00:00 GMT' }, 429)).toEqual({ retryAfterMs: 0 });
    expect(read({ 'retry-after': '30' }, 429)).toEqual({ retryAfterMs: MAX_DELAY_MS });
    expect(read({ 'retry-after': '3600' }, 429)).toEqual({ retryAfterMs: MAX_DELAY_MS, retryAfterCapped: true });
    expect(read({ 'retry-after': '3' }, 200)).toEqual({});
    expect(read({ 'retry-after': '3' }, 500)).toEqual({});
    for (const bad of ['-3', 'soon', '1e3', '2026-11-21', '', 'Sat, 99 Nov 2026 12:00:05 GMT']) {
      expect(read({ 'retry-after': bad }, 429)).toEqual({});
    }
  });

  it('reads the sandbox headers', () => {
    const limiter = new FixedWindowRateLimiter({ requests: 2, seconds: 2 });
    const at = Date.parse('2026-11-21T12:00:01.250Z'); // 1.25 s into a window ending at 12:00:02
    expect(budgetReport(200, rateLimitHeaders(limiter.take('k', at)), at, MAX_DELAY_MS)).toEqual({ remaining: 1, limit: 2, resetAt: at + 750 });
  });
});

describe('RateGate', () => {
  it('lets requests through while the budget lasts', async () => {
    const rateGate = gate();
    await rateGate.acquire();
    rateGate.release({ remaining: 3 });
    await rateGate.acquire();
    await rateGate.acquire();
    await rateGate.acquire();
    expect(await isDone(rateGate.acquire())).toBe(false);
  });

  it('stops sending when X-RateLimit-Remaining reaches 0, until a request in flight reports more', async () => {
    const rateGate = gate();
    await rateGate.acquire();
    await rateGate.acquire();
    rateGate.release({ remaining: 0 });
    const next = rateGate.acquire();
    expect(await isDone(next)).toBe(false);
    rateGate.release({ remaining: 10 });
    await next;
  });

  it('with the budget spent, no reset known and nothing in flight, sends one request alone to learn', async () => {
    const rateGate = gate();
    await rateGate.acquire();
    rateGate.release({ remaining: 0 });
    await rateGate.acquire();
    const second = rateGate.acquire();
    expect(await isDone(second)).toBe(false);
    rateGate.release({ remaining: 9 });
    await second;
  });

  it('aborts a waiting request with the signal', async () => {
    const controller = new AbortController();
    const rateGate = new RateGate({ now: () => 0, sleep, signal: controller.signal });
    await rateGate.acquire();
    rateGate.release({ retryAfterMs: 60_000 });
    const waiting = rateGate.acquire();
    controller.abort();
    await expect(waiting).rejects.toThrow();
  });
});

describe('RateGate with a reset', () => {
  const start = Date.parse('2026-11-21T12:00:00Z');
  // setImmediate stays real: isDone needs it to let promises settle.
  beforeEach(() => void vi.useFakeTimers({ now: start, toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => void vi.useRealTimers());
  const clockGate = (signal = new AbortController().signal) => new RateGate({ now: () => Date.now(), sleep, signal });

  it('holds every request until the reset once the budget is spent, then sends one first', async () => {
    const rateGate = clockGate();
    await rateGate.acquire();
    await rateGate.acquire();
    rateGate.release({ remaining: 1, resetAt: start + 2000 });
    rateGate.release({ remaining: 0, resetAt: start + 2000 });
    const first = rateGate.acquire();
    const second = rateGate.acquire();
    await vi.advanceTimersByTimeAsync(1999);
    expect(await isDone(first)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await first;
    // The new window's budget is learnt from the first answer in it, not assumed.
    expect(await isDone(second)).toBe(false);
    rateGate.release({ remaining: 19, resetAt: start + 4000 });
    await second;
  });

  it('with the limit known, lets the whole budget go at the reset', async () => {
    const rateGate = clockGate();
    await rateGate.acquire();
    rateGate.release({ remaining: 0, limit: 3, resetAt: start + 2000 });
    const three = [rateGate.acquire(), rateGate.acquire(), rateGate.acquire()];
    const fourth = rateGate.acquire();
    await vi.advanceTimersByTimeAsync(2000);
    await Promise.all(three);
    expect(await isDone(fourth)).toBe(false);
  });

  it('counts the requests in flight against the budget, then holds for the reset', async () => {
    const rateGate = clockGate();
    await rateGate.acquire();
    rateGate.release({ remaining: 2, resetAt: start + 2000 });
    await rateGate.acquire();
    await rateGate.acquire();
    const third = rateGate.acquire();
    expect(await isDone(third)).toBe(false);
    // One left by the server's count, but the request still in flight may take it.
    rateGate.release({ remaining: 1, resetAt: start + 2000 });
    expect(await isDone(third)).toBe(false);
    rateGate.release({ remaining: 0, resetAt: start + 2000 });
    await vi.advanceTimersByTimeAsync(1999);
    expect(await isDone(third)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await third;
  });

  it('holds no longer than the cap for a far-off reset, then lets one request find out', async () => {
    const rateGate = clockGate();
    await rateGate.acquire();
    rateGate.release(budgetReport(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999' }, Date.now(), MAX_DELAY_MS));
    const first = rateGate.acquire();
    const second = rateGate.acquire();
    await vi.advanceTimersByTimeAsync(MAX_DELAY_MS - 1);
    expect(await isDone(first)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await first;
    expect(await isDone(second)).toBe(false);
    rateGate.release(budgetReport(429, { 'x-ratelimit-remaining': '0', 'retry-after': '5' }, Date.now(), MAX_DELAY_MS));
    await vi.advanceTimersByTimeAsync(4999);
    expect(await isDone(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await second;
  });

  it('keeps the lowest count of a window when its answers arrive out of order', async () => {
    const rateGate = clockGate();
    for (let i = 0; i < 3; i++) await rateGate.acquire();
    rateGate.release({ remaining: 0, resetAt: start + 2000 });
    rateGate.release({ remaining: 1, resetAt: start + 2000 }); // counted before the one above
    rateGate.release({ remaining: 2, resetAt: start + 2000 });
    const next = rateGate.acquire();
    await vi.advanceTimersByTimeAsync(1999);
    expect(await isDone(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await next;
  });

  it('ignores an answer of a window that has ended once the next one has spoken', async () => {
    const rateGate = clockGate();
    await rateGate.acquire();
    await rateGate.acquire();
    rateGate.release({ remaining: 15, resetAt: start + 4000 });
    rateGate.release({ remaining: 0, resetAt: start }); // sent before the window turned, answered after
    for (let i = 0; i < 15; i++) await rateGate.acquire();
    expect(await isDone(rateGate.acquire())).toBe(false);
  });

  it('honours Retry-After over the count', async () => {
    const rateGate = clockGate();
    await rateGate.acquire();
    rateGate.release({ remaining: 15, resetAt: start + 2000, retryAfterMs: 1000 });
    const next = rateGate.acquire();
    await vi.advanceTimersByTimeAsync(999);
    expect(await isDone(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await next;
  });

  it('aborts a request held for a reset', async () => {
    const controller = new AbortController();
    const rateGate = clockGate(controller.signal);
    await rateGate.acquire();
    rateGate.release({ remaining: 0, resetAt: start + 2000 });
    const held = rateGate.acquire();
    controller.abort();
    await expect(held).rejects.toThrow();
  });

  /**
   * Walks `pages` pages, 4 at a time, `roundTripMs` a round trip, through a server that sends only
   * X-RateLimit-Remaining, and Retry-After on a 429 in whole seconds, rounded up; its window
   * begins at the first request after the last one ended. `joined`: the walk begins that far into
   * a window of which another client spent so many requests. The 429s, and when each window began.
   */
  async function walkWindows(pages: number, limit: number, windowMs: number, { roundTripMs = 5, joined = { afterMs: 0, spent: 0 } } = {}) {
    const rateGate = clockGate();
    const statuses: number[] = [];
    const windowStarts: number[] = joined.spent > 0 ? [Date.now() - joined.afterMs] : [];
    let used = joined.spent;
    let unsent = pages;
    const worker = async () => {
      while (unsent > 0) {
        await rateGate.acquire();
        if (unsent === 0) return rateGate.release({});
        unsent--;
        await new Promise((resolve) => setTimeout(resolve, roundTripMs / 2)); // the way there
        const at = Date.now();
        if (windowStarts.length === 0 || at >= (windowStarts.at(-1) as number) + windowMs) {
          windowStarts.push(at);
          used = 0;
        }
        const status = used < limit ? 200 : 429;
        if (status === 200) used++;
        else unsent++;
        const retryAfter = String(Math.ceil(((windowStarts.at(-1) as number) + windowMs - at) / 1000));
        const headers = { 'x-ratelimit-remaining': String(limit - used), ...(status === 429 ? { 'retry-after': retryAfter } : {}) };
        statuses.push(status);
        await new Promise((resolve) => setTimeout(resolve, roundTripMs / 2)); // and back
        rateGate.release(budgetReport(status, headers, Date.now(), MAX_DELAY_MS));
      }
    };
    const walk = Promise.all([worker(), worker(), worker(), worker()]);
    await vi.advanceTimersByTimeAsync(10 * windowMs);
    await walk;
    return { throttled: statuses.filter((status) => status === 429).length, windowStarts: windowStarts.map((at) => at - start) };
  }

  it('learns a window of whole seconds from its first 429, and waits out every later one without a 429', async () => {
    const { throttled, windowStarts } = await walkWindows(100, 20, 2000);
    expect(throttled).toBe(1);
    // The second window waits out the 429's Retry-After; each later one opens as the last ends, give or take a round trip.
    expect(windowStarts).toHaveLength(5);
    expect(windowStarts.slice(2).map((at, index) => at - (windowStarts[index + 1] as number))).toEqual([2004, 2004, 2004]);
  });

  it('waits a window as measured once its guess in whole seconds drew a 429', async () => {
    // A slow first window: its 429 comes 0.9 s in, told 2 s (1.6 rounded up), which makes 2 s of a 2.5 s window.
    const { throttled, windowStarts } = await walkWindows(100, 20, 2500, { roundTripMs: 150 });
    expect(throttled).toBe(2);
    expect(windowStarts).toHaveLength(5);
    const gaps = windowStarts.slice(3).map((at, index) => at - (windowStarts[index + 2] as number));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(2500);
  });

  it('learns the window again, from the window before, when the walk joined its first window late', async () => {
    const { throttled, windowStarts } = await walkWindows(100, 20, 2000, { joined: { afterMs: 1500, spent: 10 } });
    // The first 429 comes 0.5 s before the window ends, which makes a window of 1 s; the next window's learned end draws the second.
    expect(throttled).toBe(2);
    expect(windowStarts.slice(3).map((at, index) => at - (windowStarts[index + 2] as number))).toEqual([2012, 2012, 2012]);
  });

  it('learns a window longer than the longest wait from the 429 after the cut pause, not from the cut Retry-After', async () => {
    const { throttled, windowStarts } = await walkWindows(100, 20, 60_000);
    // The first 429 says 60 s, cut to 30; the one after the pause tells the window's end.
    expect(throttled).toBe(2);
    expect(windowStarts).toHaveLength(5);
    expect(windowStarts.slice(2).map((at, index) => at - (windowStarts[index + 1] as number))).toEqual([60_004, 60_004, 60_004]);
  });

  it('walks 100 pages, 4 at a time, through the sandbox limiter at 20/2 s: no 429, done as the fifth window opens', async () => {
    const limiter = new FixedWindowRateLimiter({ requests: 20, seconds: 2 });
    const began = start + 300; // 0.3 s into a window
    vi.setSystemTime(began);
    const rateGate = clockGate();
    const statuses: number[] = [];
    let unsent = 100;
    let lastAnswer = 0;
    const worker = async () => {
      while (unsent > 0) {
        await rateGate.acquire();
        if (unsent === 0) return rateGate.release({});
        unsent--;
        const verdict = limiter.take('key', Date.now());
        await new Promise((resolve) => setTimeout(resolve, 5)); // the round trip
        const headers = { ...rateLimitHeaders(verdict), ...(verdict.allowed ? {} : { 'retry-after': String(verdict.retryAfterSeconds) }) };
        const status = verdict.allowed ? 200 : 429;
        if (status === 429) unsent++;
        statuses.push(status);
        lastAnswer = Date.now();
        rateGate.release(budgetReport(status, headers, lastAnswer, MAX_DELAY_MS));
      }
    };
    const walk = Promise.all([worker(), worker(), worker(), worker()]);
    await vi.advanceTimersByTimeAsync(20_000);
    await walk;
    expect(statuses).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    // The fifth window opens at start + 8 s: its 20 pages take 5 round trips, 4 at a time.
    expect(lastAnswer - (start + 8000)).toBe(5 * 5);
  });
});
