import type { OutputStream } from '../deps.js';
import { paint } from './color.js';

/** Messages for people, on stderr. stdout carries data only. */
export class Logger {
  constructor(
    private readonly stream: OutputStream,
    private readonly options: { quiet: boolean; verbose: boolean; color: boolean },
  ) {}

  get isVerbose(): boolean {
    return this.options.verbose;
  }

  /** Progress and summaries: silenced by --quiet. */
  info(message: string): void {
    if (!this.options.quiet) this.stream.write(`${message}\n`);
  }

  warn(message: string): void {
    this.stream.write(`${paint(this.options.color, 'yellow', 'warning:')} ${message}\n`);
  }

  /** The request log of --verbose. Callers redact secrets before they get here. */
  debug(message: string): void {
    if (this.options.verbose) this.stream.write(`${paint(this.options.color, 'dim', message)}\n`);
  }

  error(message: string, hint?: string): void {
    this.stream.write(`${paint(this.options.color, 'red', 'mkt:')} ${message}\n`);
    if (hint) this.stream.write(`${hint}\n`);
  }
}
