import type { Ora } from 'ora';
import type { OutputStream } from '../core/deps.js';
import { groupDigits } from '../core/digits.js';
import { SHOWN_WAIT_MS, type Wait, type WaitObserver } from '../core/waits.js';

export interface ProgressState {
  /** Pages fetched so far. */
  page: number;
  totalPages?: number;
  /** Records so far. */
  records: number;
}

/**
 * One line on stderr: a walk's pages, or a command's steps, and what the HTTP client waits for.
 * It shows once there is something to say, and goes when a wait that was all it said ends.
 */
export interface Progress extends WaitObserver {
  update(state: ProgressState): void;
  /** Where a command that is not a walk is: `venue 12 of 40 · NYSE`. */
  step(text: string): void;
  /** Clears the spinner and prints the one-line summary in its place. */
  finish(summary: string): void;
  /** Clears the spinner: before data reaches the terminal, or after an error. */
  clear(): void;
}

export interface ProgressOptions {
  /** stderr. */
  stream: OutputStream;
  /** False when the stream is not a terminal or with --quiet: then nothing at all is printed. */
  enabled: boolean;
  /** Colour the spinner. @default true */
  color?: boolean;
  /** Milliseconds since the epoch, for the rate and the waits. @default Date.now */
  now?: () => number;
}

const SILENT: Progress = { update() {}, step() {}, began() {}, ended() {}, finish() {}, clear() {} };

/** How often a wait's seconds are counted down: often enough that no second is skipped. */
const COUNTDOWN_TICKS_PER_SECOND = 4;

function describe(state: ProgressState, recordsPerSecond: number): string {
  const pages = state.totalPages === undefined ? `page ${state.page}` : `page ${state.page}/${state.totalPages}`;
  const rate = Number.isFinite(recordsPerSecond) ? ` · ${groupDigits(Math.round(recordsPerSecond))} records/s` : '';
  return `${pages} · ${groupDigits(state.records)} records${rate}`;
}

/** `waiting for the rate limit · 12 s`: what the client waits for, and how long is left of it. */
export function describeWait(wait: Wait, now: number): string {
  const seconds = groupDigits(Math.max(1, Math.ceil((wait.until - now) / 1000)));
  const what = {
    'rate-limit': 'waiting for the rate limit',
    unavailable: 'waiting for the service to come back',
    retry: `waiting to retry${wait.attempt ? ` (try ${wait.attempt.number} of ${wait.attempt.of})` : ''}`,
    'max-rps': 'waiting for --max-rps',
  }[wait.cause];
  return `${what} · ${seconds} s${wait.capped ? ' (capped: the server asked for more)' : ''}`;
}

/**
 * A spinner on stderr showing page x/y, records so far and the rate, or a command's step, and
 * any wait longer than SHOWN_WAIT_MS, counted down. ora is loaded only when the progress is
 * enabled, so a quiet or piped run never pays for it.
 */
export async function createProgress(options: ProgressOptions): Promise<Progress> {
  if (!options.enabled) return SILENT;
  const { default: ora } = await import('ora');
  const now = options.now ?? Date.now;
  const startedAt = now();
  let spinner: Ora | undefined;
  /** What the command said last, if anything. */
  let said: string | undefined;
  const waits = new Set<Wait>();
  let countdown: NodeJS.Timeout | undefined;

  const stop = (): void => {
    spinner?.stop();
    spinner = undefined;
  };
  /** The line as it stands, at once rather than at the next frame: a page or a wait is news. */
  const render = (): void => {
    const longest = [...waits].reduce<Wait | undefined>((held, wait) => (held === undefined || wait.until > held.until ? wait : held), undefined);
    const text = [said, longest && describeWait(longest, now())].filter(Boolean).join(' · ');
    if (text === '') return stop();
    spinner ??= ora({
      stream: options.stream,
      isEnabled: true,
      color: options.color === false ? false : 'cyan',
      // ora would put stdin in raw mode, where Ctrl-C stops raising SIGINT while Parquet encodes.
      discardStdin: false,
    }).start();
    spinner.text = text;
    spinner.render();
  };
  const endWaits = (): void => {
    waits.clear();
    clearInterval(countdown);
    countdown = undefined;
  };
  const clear = (): void => {
    endWaits();
    said = undefined;
    stop();
  };
  return {
    update(state) {
      said = describe(state, state.records / ((now() - startedAt) / 1000));
      render();
    },
    step(text) {
      said = text;
      render();
    },
    began(wait) {
      if (wait.ms <= SHOWN_WAIT_MS) return;
      waits.add(wait);
      countdown ??= setInterval(render, 1000 / COUNTDOWN_TICKS_PER_SECOND).unref();
      render();
    },
    ended(wait) {
      if (!waits.delete(wait)) return;
      if (waits.size === 0) endWaits();
      render();
    },
    finish(summary) {
      clear();
      options.stream.write(`${summary}\n`);
    },
    clear,
  };
}
