import { describe, expect, it } from 'vitest';
import { RateGate } from '../../../src/http/rate-gate.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

function gate() {
  return new RateGate({ now: () => 0, signal: new AbortController().signal });
}

describe('RateGate', () => {
  it('lets requests through while the budget lasts', async () => {
    const rateGate = gate();
    await rateGate.acquire();
    rateGate.release({ remaining: 3 });
    await rateGate.acquire();
    await rateGate.acquire();
    await rateGate.acquire();
    let fourthStarted = false;
    void rateGate.acquire().then(() => (fourthStarted = true));
    await settle();
    expect(fourthStarted).toBe(false);
  });

  it('stops sending when X-RateLimit-Remaining reaches 0, until a request in flight reports more', async () => {
    const rateGate = gate();
    await rateGate.acquire();
    await rateGate.acquire();
    rateGate.release({ remaining: 0 });
    let started = false;
    const next = rateGate.acquire().then(() => (started = true));
    await settle();
    expect(started).toBe(false);
    rateGate.release({ remaining: 10 });
    await next;
    expect(started).toBe(true);
  });

  it('with the budget spent and nothing in flight, sends one request alone to learn when the window reopens', async () => {
    const rateGate = gate();
    await rateGate.acquire();
    rateGate.release({ remaining: 0 });
    await rateGate.acquire();
    let secondStarted = false;
    const second = rateGate.acquire().then(() => (secondStarted = true));
    await settle();
    expect(secondStarted).toBe(false);
    rateGate.release({ remaining: 9 });
    await second;
  });

  it('aborts a waiting request with the signal', async () => {
    const controller = new AbortController();
    const rateGate = new RateGate({ now: () => 0, signal: controller.signal });
    await rateGate.acquire();
    rateGate.release({ retryAfterMs: 60_000 });
    const waiting = rateGate.acquire();
    controller.abort();
    await expect(waiting).rejects.toThrow();
  });
});
