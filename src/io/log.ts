import type { OutputStream } from '../core/deps.js';
import type { FailureDescription } from '../core/error-codes.js';
import { redactKey } from '../core/redaction.js';
import { paint } from './color.js';

/**
 * The shortest key the logger conceals in its lines. A shorter one cannot be told from mkt's own
 * words (`k` is in `mkt`); serverText still takes it out of what the server says.
 */
export const MIN_CONCEALED_KEY = 8;

/** The most lines a Logger holds back; a run that says more keeps its first lines and counts the rest. */
const MAX_HELD_LINES = 1000;

export interface LoggerOptions {
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  /**
   * Hold notes and warnings back until `release()` (`--error-format json`): a run that fails then
   * leaves its JSON object alone on stderr. The request log of --verbose is written as it comes.
   * @default false
   */
  hold?: boolean;
}

/** Messages for people, on stderr. stdout carries data only. */
export class Logger {
  private readonly keys = new Set<string>();
  private readonly held: string[] = [];
  private droppedLines = 0;

  constructor(
    private readonly stream: OutputStream,
    private readonly options: LoggerOptions,
  ) {}

  get isVerbose(): boolean {
    return this.options.verbose;
  }

  /**
   * Keeps `key` out of every line from now on. Callers still redact server text themselves; this
   * is the last guard, for text made where the key was not at hand (a record's id in a message).
   */
  conceal(key: string): void {
    if (key.length >= MIN_CONCEALED_KEY) this.keys.add(key);
  }

  /** Progress and summaries: silenced by --quiet. */
  info(message: string): void {
    if (!this.options.quiet) this.write(message);
  }

  warn(message: string): void {
    this.write(message, paint(this.options.color, 'yellow', 'warning:'));
  }

  /** The request log of --verbose. Callers redact secrets before they get here. */
  debug(message: string): void {
    if (this.options.verbose) this.stream.write(`${paint(this.options.color, 'dim', this.concealed(message))}\n`);
  }

  error(message: string, hint?: string): void {
    this.write(message, paint(this.options.color, 'red', 'mkt:'));
    if (hint) this.write(hint);
  }

  /** A failure as one line of JSON, `{"error": {…}}` (`--error-format json`), the key concealed; `hint` null when there is none. */
  failure(failure: FailureDescription): void {
    const { code, message, hint, exit_code, http_status, retryable } = failure;
    const error = { code, message: this.concealed(message), hint: hint === undefined ? null : this.concealed(hint), exit_code, http_status, retryable };
    this.stream.write(`${JSON.stringify({ error })}\n`);
  }

  /** Writes what was held back: the run succeeded. A run that fails drops it instead. */
  release(): void {
    if (this.droppedLines > 0) this.held.push(`(${this.droppedLines} more ${this.droppedLines === 1 ? 'line' : 'lines'} not kept)\n`);
    for (const line of this.held.splice(0)) this.stream.write(line);
    this.droppedLines = 0;
  }

  private write(message: string, label?: string): void {
    const line = this.concealed(message);
    const text = label ? `${label} ${line}\n` : `${line}\n`;
    if (!this.options.hold) this.stream.write(text);
    else if (this.held.length < MAX_HELD_LINES) this.held.push(text);
    else this.droppedLines += 1;
  }

  private concealed(message: string): string {
    let line = message;
    for (const key of this.keys) line = redactKey(line, key);
    return line;
  }
}
