import type { OutputStream } from '../core/deps.js';
import { groupDigits } from '../core/digits.js';

export interface ProgressState {
  /** Pages fetched so far. */
  page: number;
  totalPages?: number;
  /** Records so far. */
  records: number;
}

export interface Progress {
  update(state: ProgressState): void;
  /** Clears the spinner and prints the one-line summary in its place. */
  finish(summary: string): void;
  /** Clears the spinner for good: before data reaches the terminal, or after an error. */
  clear(): void;
}

export interface ProgressOptions {
  /** stderr. */
  stream: OutputStream;
  /** False when the stream is not a terminal or with --quiet: then nothing at all is printed. */
  enabled: boolean;
  /** Colour the spinner. @default true */
  color?: boolean;
  /** Milliseconds since the epoch, for the rate. @default Date.now */
  now?: () => number;
}

const SILENT: Progress = { update() {}, finish() {}, clear() {} };

function describe(state: ProgressState, recordsPerSecond: number): string {
  const pages = state.totalPages === undefined ? `page ${state.page}` : `page ${state.page}/${state.totalPages}`;
  const rate = Number.isFinite(recordsPerSecond) ? ` · ${groupDigits(Math.round(recordsPerSecond))} records/s` : '';
  return `${pages} · ${groupDigits(state.records)} records${rate}`;
}

/**
 * A spinner on stderr showing page x/y, records so far and the rate. ora is loaded only when
 * the progress is enabled, so a quiet or piped run never pays for it.
 */
export async function createProgress(options: ProgressOptions): Promise<Progress> {
  if (!options.enabled) return SILENT;
  const { default: ora } = await import('ora');
  const now = options.now ?? Date.now;
  const startedAt = now();
  const spinner = ora({
    stream: options.stream,
    isEnabled: true,
    color: options.color === false ? false : 'cyan',
    // ora would put stdin in raw mode, where Ctrl-C stops raising SIGINT while Parquet encodes.
    discardStdin: false,
    text: 'fetching',
  }).start();
  return {
    update(state) {
      spinner.text = describe(state, state.records / ((now() - startedAt) / 1000));
      spinner.render(); // at once, not at the next frame: a page is news
    },
    finish(summary) {
      spinner.stop();
      options.stream.write(`${summary}\n`);
    },
    clear() {
      spinner.stop();
    },
  };
}
