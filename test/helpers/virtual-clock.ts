import type { Sleep } from '../../src/core/waits.js';

/**
 * A clock for Deps.now and Deps.sleep that runs as the real one does, but jumps over sleeps: a
 * wait of minutes passes at once, and a server that reads the same clock sees it pass. Once the
 * sleepers of a turn of the event loop have all begun, the clock jumps to the first of them to
 * wake, so sleeps that overlap in time overlap here too. With `pace` below 1, real time runs
 * slower on it, as on a machine and a network that many times faster: what a test then
 * measures is the waits a client chose, not how busy the machine running the test was.
 */
export function virtualClock({ pace = 1 }: { pace?: number } = {}): { now: () => number; sleep: Sleep } {
  const origin = Date.now();
  const running = (): number => origin + (Date.now() - origin) * pace;
  let skipped = 0;
  const now = (): number => running() + skipped;
  const sleepers = new Set<{ until: number; wake: () => void }>();
  let jumping = false;
  const jump = (): void => {
    jumping = false;
    if (sleepers.size === 0) return;
    const first = Math.min(...[...sleepers].map((sleeper) => sleeper.until));
    skipped = Math.max(skipped, first - running());
    for (const sleeper of sleepers) if (sleeper.until <= now()) sleeper.wake();
    schedule();
  };
  const schedule = (): void => {
    if (jumping || sleepers.size === 0) return;
    jumping = true;
    setImmediate(jump);
  };
  const sleep: Sleep = (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        sleepers.delete(sleeper);
        reject(signal.reason);
      };
      const sleeper = {
        until: now() + ms,
        wake: () => {
          sleepers.delete(sleeper);
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      sleepers.add(sleeper);
      schedule();
    });
  return { now, sleep };
}
