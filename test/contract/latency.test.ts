import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { getExchange, getResults } from './http.js';

const LATENCY_MS = 200;
const slow = useSandbox({ latencyMs: LATENCY_MS });

describe('--latency', () => {
  // A lower bound only: the delay is a floor the server guarantees, so this cannot flake on a slow machine.
  it('delays every response by at least the latency', async () => {
    for (const request of [() => getResults(slow.current), () => getExchange(slow.current, 'NYSE', 'fees')]) {
      const started = performance.now();
      const { status } = await request();
      expect(status).toBe(200);
      // Timers may fire up to a millisecond early; allow for rounding.
      expect(performance.now() - started).toBeGreaterThanOrEqual(LATENCY_MS - 2);
    }
  });
});
