import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { useSandbox } from '../helpers/sandbox.js';
import { getExchange, getResults } from './http.js';

/** The end of the clock-aligned window of `seconds` that holds `at`, in epoch ms. */
const windowEnd = (at: number, seconds: number) => (Math.floor(at / (seconds * 1000)) + 1) * seconds * 1000;

/** Windows are aligned to the clock: a test that counts within one starts well clear of its end. */
async function clearOfWindowEnd(seconds: number): Promise<void> {
  const left = windowEnd(Date.now(), seconds) - Date.now();
  if (left < 2000) await sleep(left + 10);
}

describe('--rate', () => {
  // A window far longer than the test (a day, turning at midnight UTC).
  const limited = useSandbox({ rate: { requests: 3, seconds: 86_400 } });
  beforeEach(() => clearOfWindowEnd(86_400));

  it('counts down X-RateLimit-Remaining, then answers 429 with Retry-After', async () => {
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const { status, headers } = await getResults(limited.current);
      expect(status).toBe(200);
      remaining.push(headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const { status, headers, body } = await getResults(limited.current);
    expect(status).toBe(429);
    expect(headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(body).toStrictEqual({ detail: expect.stringContaining('Rate limit exceeded') });
  });

  it('keeps a budget per key, across both endpoint families', async () => {
    const scoped = limited.current.keys.scoped_api_key;
    const first = await getExchange(limited.current, 'NYSE', 'fees', { key: scoped });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    const second = await getResults(limited.current, { key: scoped });
    expect(second.headers.get('x-ratelimit-remaining')).toBe('1');
  });
});

describe('--rate: the common headers, and windows aligned to the clock', () => {
  const minute = useSandbox({ rate: { requests: 2, seconds: 60 } });
  beforeEach(() => clearOfWindowEnd(60));

  it('sends X-RateLimit-Limit and X-RateLimit-Reset (epoch seconds of the window end) on every response', async () => {
    const before = Date.now();
    const answers = [await getResults(minute.current), await getResults(minute.current, { query: { page_size: 0 } })];
    const beforeRefused = Date.now();
    answers.push(await getResults(minute.current));
    const after = Date.now();
    expect(answers.map((answer) => answer.status)).toEqual([200, 422, 429]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['1', '0', '0']);
    for (const { headers } of answers) {
      expect(headers.get('x-ratelimit-limit')).toBe('2');
      const reset = headers.get('x-ratelimit-reset') ?? '';
      expect(reset).toMatch(/^\d{10}$/);
      expect([windowEnd(before, 60), windowEnd(after, 60)]).toContain(Number(reset) * 1000);
    }
    // Retry-After is the same moment, in whole seconds from when the sandbox answered.
    const refused = answers[2] as (typeof answers)[number];
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(reset - after / 1000)));
    expect(retryAfter).toBeLessThanOrEqual(Math.max(1, Math.ceil(reset - beforeRefused / 1000)));
  });

  it('reopens a window on the clock, not a window after the sandbox started', async () => {
    await sleep(1500 - (Date.now() % 1000)); // half a second past a whole second
    const sandbox = await startSandbox({ port: 0, records: 10, rate: { requests: 1, seconds: 1 } });
    try {
      const first = await getResults(sandbox);
      expect(first.status).toBe(200);
      const reset = Number(first.headers.get('x-ratelimit-reset')) * 1000;
      expect(reset % 1000).toBe(0);
      expect(reset - Date.now()).toBeLessThan(1000);
      expect((await getResults(sandbox)).status).toBe(429);
      // Counted from the sandbox's start, this window would last half a second longer.
      await sleep(reset - Date.now() + 20);
      const next = await getResults(sandbox);
      expect(next.status).toBe(200);
      expect(Number(next.headers.get('x-ratelimit-reset')) * 1000).toBe(reset + 1000);
    } finally {
      await sandbox.close();
    }
  });
});

describe('without --rate', () => {
  const open = useSandbox();

  it('still sends X-RateLimit-Remaining on every response, errors included', async () => {
    const answers = [
      await getResults(open.current),
      await getResults(open.current, { key: null }),
      await getResults(open.current, { query: { page_size: 0 } }),
      await getExchange(open.current, 'NYSE', 'rules'),
      await getExchange(open.current, 'NO_SUCH_VENUE', 'rules'),
      await getExchange(open.current, 'IEX', 'rules', { key: open.current.keys.scoped_api_key }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 422, 200, 404, 403]);
    for (const answer of answers) {
      expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
      // No window, so nothing for the common headers to describe.
      expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
      expect(answer.headers.get('x-ratelimit-reset')).toBeNull();
    }
  });

  it('never answers 429', async () => {
    const statuses = await Promise.all(Array.from({ length: 50 }, async () => (await getResults(open.current)).status));
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});
