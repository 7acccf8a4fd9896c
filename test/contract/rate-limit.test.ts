import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { getExchange, getResults } from './http.js';

describe('--rate', () => {
  // A window far longer than the test, so it cannot roll over mid-test.
  const limited = useSandbox({ rate: { requests: 3, seconds: 600 } });

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
    expect(retryAfter).toBeLessThanOrEqual(600);
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
    for (const answer of answers) expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
  });

  it('never answers 429', async () => {
    const statuses = await Promise.all(Array.from({ length: 50 }, async () => (await getResults(open.current)).status));
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});
