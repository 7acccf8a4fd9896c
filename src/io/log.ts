import type { OutputStream } from '../core/deps.js';
import { redactKey } from '../core/redaction.js';
import { paint } from './color.js';

/**
 * The shortest key the logger conceals in its lines. A shorter one cannot be told from mkt's own
 * words (`k` is in `mkt`); serverText still takes it out of what the server says.
 */
export const MIN_CONCEALED_KEY = 8;

/** Messages for people, on stderr. stdout carries data only. */
export class Logger {
  private readonly keys = new Set<string>();

  constructor(
    private readonly stream: OutputStream,
    private readonly options: { quiet: boolean; verbose: boolean; color: boolean },
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

  private write(message: string, label?: string): void {
    const line = this.concealed(message);
    this.stream.write(label ? `${label} ${line}\n` : `${line}\n`);
  }

  private concealed(message: string): string {
    let line = message;
    for (const key of this.keys) line = redactKey(line, key);
    return line;
  }
}
