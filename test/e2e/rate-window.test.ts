import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { emptyResultsPage, sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { virtualClock } from '../helpers/virtual-clock.js';

const KEY = 'test-key-0123456789abcdef';
const recorder = useRecordingServers();

/**
 * A results service of `pages` pages of one record, limited as the interface document allows a
 * service to be: `limit` requests per window of `windowMs`, a window beginning at the first
 * request after the last window ended. It sends X-RateLimit-Remaining, and on a 429 Retry-After
 * in whole seconds, rounded up; nothing says when a window ends. It keeps its own account, on
 * the clock it is given.
 */
async function windowedService(now: () => number, { pages, limit, windowMs }: { pages: number; limit: number; windowMs: number }) {
  const account = { throttled: 0, firstServed: Number.NaN, lastServed: Number.NaN };
  let windowStart = Number.NEGATIVE_INFINITY;
  let used = 0;
  const server = await recorder((request, response: ServerResponse) => {
    const at = now();
    if (at >= windowStart + windowMs) {
      windowStart = at;
      used = 0;
    }
    if (used >= limit) {
      account.throttled++;
      const retryAfter = String(Math.ceil((windowStart + windowMs - at) / 1000));
      return sendJson(response, 429, { detail: 'Too Many Requests' }, { 'x-ratelimit-remaining': '0', 'retry-after': retryAfter });
    }
    used++;
    if (Number.isNaN(account.firstServed)) account.firstServed = at;
    account.lastServed = at;
    const page = Number(new URL(request.url, 'http://x').searchParams.get('page_number'));
    const body = { ...emptyResultsPage(1, page), data: [{ id: `r${page}` }], total_records: pages, total_pages: pages };
    sendJson(response, 200, body, { 'x-ratelimit-remaining': String(limit - used) });
  });
  return { url: server.url, account };
}

describe('a service that tells only what is left of the window, and a 429 when to come back', () => {
  it('walks 100 pages at 20 per 2 s drawing at most two 429s, within 1.1× the least time the limit allows', async () => {
    // Real time at a tenth: the round trips of a loaded test machine are not the client's to answer for.
    const clock = virtualClock({ pace: 0.1 });
    const service = await windowedService(clock.now, { pages: 100, limit: 20, windowMs: 2000 });
    const run = await runInProcess(['results', '--all', '--page-size', '1', '-f', 'ndjson', '--columns', 'id'], {
      env: { MKT_BASE_URL: service.url, MKT_API_KEY: KEY },
      ...clock,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(Array.from({ length: 100 }, (_, page) => `{"id":"r${page}"}\n`).join(''));
    expect(service.account.throttled).toBeLessThanOrEqual(2);
    // Five windows of 20: the last can open no sooner than four whole windows after the first.
    const least = 4 * 2000;
    expect(service.account.lastServed - service.account.firstServed).toBeGreaterThanOrEqual(least);
    expect(service.account.lastServed - service.account.firstServed).toBeLessThanOrEqual(1.1 * least);
  });
});
