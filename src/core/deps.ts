import type { Readable, Writable } from 'node:stream';
import type { Sleep } from './waits.js';

/** A writable stream as `process.stdout` is: it may be a terminal of some width. */
export type OutputStream = Writable & { isTTY?: boolean; columns?: number };
export type InputStream = Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/** Everything a command may take from the process. Tests hand in their own. */
export interface Deps {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds since the epoch. */
  now: () => number;
  /**
   * How the HTTP client waits (the rate limit, Retry-After, back-off), on the clock of `now`:
   * a test with a clock of its own hands in the sleep that moves it.
   * @default realSleep (src/core/waits.ts)
   */
  sleep?: Sleep;
  /**
   * The longest wait between two tries of a request, in milliseconds, `Retry-After` included:
   * 0 for tests whose point is not back-off.
   * @default the retry policy's
   */
  maxRetryDelayMs?: number;
  /**
   * Pages a sync stages between two commits: a few for tests whose point is a commit, which
   * then need a few pages rather than hundreds.
   * @default COMMIT_EVERY_PAGES (src/mirror/sync.ts)
   */
  syncCommitPages?: number;
  /**
   * The most rows one read of `results --offline` takes from the mirror: a few pages for tests
   * whose point is a walk past reads of the most, which then need a few thousand records rather
   * than tens of thousands.
   * @default MAX_BATCH (src/mirror/offline-results.ts)
   */
  offlineReadRows?: number;
}

export function processDeps(): Deps {
  return {
    // A getter: touching process.stdin sets up a stream (and, on a pipe, a socket), which only
    // `auth login` needs. Every other command would pay for it at start-up.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    now: Date.now,
  };
}
