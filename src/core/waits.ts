import { setTimeout } from 'node:timers/promises';

/** What a request waits for before it is sent. */
export type WaitCause =
  /** The rate budget is spent, or a 429 said when to try again. */
  | 'rate-limit'
  /** A 503 said when to try again. */
  | 'unavailable'
  /** Back-off before another try of a failed request. */
  | 'retry'
  /** --max-rps spaces the requests. */
  | 'max-rps';

/** One wait of the HTTP client, as it tells the progress line. */
export interface Wait {
  cause: WaitCause;
  /** How long it is, in milliseconds, when it begins. */
  ms: number;
  /** When it ends, on Deps.now's clock. */
  until: number;
  /** The server asked for longer than the longest wait, and the wait was cut to that. */
  capped?: boolean;
  /** For a retry: this try's number and how many there may be, as `try 2 of 5`. */
  attempt?: { number: number; of: number };
}

/** Told of each wait of the HTTP client as it begins and as it ends (or is aborted). */
export interface WaitObserver {
  began(wait: Wait): void;
  ended(wait: Wait): void;
}

/** Waits longer than this show on the progress line; shorter ones would only flicker. */
export const SHOWN_WAIT_MS = 1000;

/** Sleeps `ms` on the clock of Deps.now; rejects when `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** Sleeps on the process's own clock, as Date.now runs. */
export const realSleep: Sleep = async (ms, signal) => {
  await setTimeout(ms, undefined, { signal });
};

/**
 * Waits `ms` on `sleep`, telling `observer` as the wait begins and ends: the one way the
 * rate gate and the retries wait.
 */
export async function waitFor(wait: Wait, sleep: Sleep, signal: AbortSignal, observer: WaitObserver | undefined): Promise<void> {
  observer?.began(wait);
  try {
    await sleep(wait.ms, signal);
  } finally {
    observer?.ended(wait);
  }
}
