import { parseIsoDate } from './time.js';

/** One entry of a FastAPI 422 body: `{"detail": [ValidationIssue, ...]}`. */
export interface ValidationIssue {
  type: string;
  loc: ['query', string];
  msg: string;
  input: string;
  ctx?: Record<string, unknown>;
}

/**
 * Reads single-valued query parameters the way FastAPI does (the last occurrence wins) and
 * collects every problem, so that one 422 names them all.
 */
export class QueryReader {
  readonly issues: ValidationIssue[] = [];

  constructor(readonly params: URLSearchParams) {}

  /** The last value of a parameter, as FastAPI reads a single-valued one; undefined when absent. */
  last(name: string): string | undefined {
    const values = this.params.getAll(name);
    return values[values.length - 1];
  }

  private fail(name: string, input: string, type: string, msg: string, ctx?: Record<string, unknown>): undefined {
    this.issues.push({ type, loc: ['query', name], msg, input, ...(ctx ? { ctx } : {}) });
    return undefined;
  }

  integer(name: string, bounds: { min: number; max?: number; default: number }): number {
    const input = this.last(name);
    if (input === undefined) return bounds.default;
    if (!/^\s*[+-]?\d+\s*$/.test(input)) {
      this.fail(name, input, 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
      return bounds.default;
    }
    const value = Number(input);
    if (value < bounds.min) {
      this.fail(name, input, 'greater_than_equal', `Input should be greater than or equal to ${bounds.min}`, { ge: bounds.min });
    } else if (bounds.max !== undefined && value > bounds.max) {
      this.fail(name, input, 'less_than_equal', `Input should be less than or equal to ${bounds.max}`, { le: bounds.max });
    }
    return value;
  }

  /** Pydantic's lenient booleans: true/false, 1/0, yes/no, on/off, t/f, y/n, in any case. */
  boolean(name: string, fallback: boolean): boolean {
    const input = this.last(name);
    if (input === undefined) return fallback;
    const normalised = input.trim().toLowerCase();
    if (['true', '1', 'yes', 'on', 't', 'y'].includes(normalised)) return true;
    if (['false', '0', 'no', 'off', 'f', 'n'].includes(normalised)) return false;
    this.fail(name, input, 'bool_parsing', 'Input should be a valid boolean, unable to interpret input');
    return fallback;
  }

  /** One of `choices`, matched exactly, as FastAPI matches an Enum. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const input = this.last(name);
    if (input === undefined) return fallback;
    if ((choices as readonly string[]).includes(input)) return input as T;
    this.failEnum(name, input, choices);
    return fallback;
  }

  /** Every value of a repeatable parameter, each one of `choices` exactly; one issue per other value. */
  choices(name: string, choices: readonly string[]): string[] {
    const values = this.params.getAll(name);
    for (const input of values) if (!choices.includes(input)) this.failEnum(name, input, choices);
    return values;
  }

  private failEnum(name: string, input: string, choices: readonly string[]): void {
    const quoted = choices.map((choice) => `'${choice}'`);
    const expected = `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]!}`;
    this.fail(name, input, 'enum', `Input should be ${expected}`, { expected });
  }

  /** A YYYY-MM-DD date as days since the epoch; undefined when absent. */
  date(name: string): number | undefined {
    const input = this.last(name);
    if (input === undefined) return undefined;
    const day = parseIsoDate(input);
    if (day === undefined) {
      return this.fail(name, input, 'date_from_datetime_parsing', 'Input should be a valid date in the format YYYY-MM-DD');
    }
    return day;
  }
}
