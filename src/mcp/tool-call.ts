import { Writable } from 'node:stream';
import type { ServiceClient } from '../api/client.js';
import { Context } from '../commands/context.js';
import type { ResolvedSettings } from '../config/resolve.js';
import { describeFailure } from '../core/error-codes.js';
import { MalformedResponseError, MktError, UsageError } from '../core/errors.js';
import { redactKey } from '../core/redaction.js';

/**
 * The characters of data one result may carry. A result holds its data twice, as
 * `structuredContent` and as the same JSON in a text block for clients that read text only, so
 * that the whole answer stays under the contract's 100,000 characters.
 */
export const MAX_DATA_CHARS = 45_000;

/** What a tool answers: its structured data, and the same JSON as text. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
}

/** What a tool that failed answers: the error, as JSON text. */
export interface ToolFailure {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError: true;
}

/** Records taken while they fit: at most `maxRecords`, and `maxChars` of their JSON. */
export class RecordBudget {
  private chars = 0;
  readonly records: Record<string, unknown>[] = [];
  /** Set when a record did not fit: the answer is cut there. */
  cut = false;

  constructor(
    private readonly maxRecords: number,
    private readonly maxChars: number = MAX_DATA_CHARS,
  ) {}

  /**
   * Takes the record if it fits, else answers `full`; a record that alone exceeds the budget is
   * `oversized`, which the caller names in a note and pages past rather than stall there.
   */
  take(record: Record<string, unknown>): 'taken' | 'full' | 'oversized' {
    const size = JSON.stringify(record).length + 1;
    if (this.records.length >= this.maxRecords || this.chars + size > this.maxChars) {
      this.cut = true;
      return this.records.length === 0 && size > this.maxChars ? 'oversized' : 'full';
    }
    this.chars += size;
    this.records.push(record);
    return 'taken';
  }
}

/** The error a full budget ends a command's output with: to writeDataset, a reader that went away, as `| head` does. */
function readerWentAway(): NodeJS.ErrnoException {
  return Object.assign(new Error('the tool has taken what fits in its answer'), { code: 'EPIPE' });
}

/**
 * Standard output of a command run for a tool, in NDJSON: each line a record, skipped while
 * `skip` lasts, then taken into the budget until it is full, when the stream breaks as a pipe
 * whose reader has gone, and the command stops writing.
 */
class NdjsonCollector extends Writable {
  private partial = '';
  private skipped = 0;
  /** Records taken, and one passed over as oversized: the next answer begins that many after `skip`. */
  passed = 0;
  /** A record left out because it alone is larger than an answer may be. */
  oversized = false;

  constructor(
    readonly budget: RecordBudget,
    private readonly skip = 0,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const lines = (this.partial + chunk.toString()).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') continue;
      if (this.skipped < this.skip) {
        this.skipped++;
        continue;
      }
      const taken = this.budget.take(JSON.parse(line) as Record<string, unknown>);
      if (taken === 'taken') this.passed++;
      if (taken === 'oversized') {
        this.oversized = true;
        this.passed++;
      }
      if (taken !== 'taken') {
        callback(readerWentAway());
        return;
      }
    }
    callback();
  }
}

/**
 * One tool call's Context: the server's settings and client (one sandbox, one connection pool,
 * the key resolved once), with its own standard output, quiet stderr and its own end. Commands
 * run in it as with `-f ndjson -q`, and what they write is the tool's data.
 */
class ToolCallContext extends Context {
  constructor(
    private readonly server: Context,
    stdout: Writable,
  ) {
    super({ ...server.deps, stdout }, { ...server.globals, format: 'ndjson', output: undefined, columns: undefined, csvSafe: false, quiet: true, color: false });
  }

  override async settings(): Promise<ResolvedSettings> {
    const settings = await this.server.settings();
    // This call's log is its own: it hides the key as the server's does.
    if (settings.apiKey) this.log.conceal(settings.apiKey);
    return settings;
  }

  override client(): Promise<ServiceClient> {
    return this.server.client();
  }
}

/** Runs `work` in a call's own Context, which ends with it, and stops when the client cancels the call. */
async function inToolCall<T>(server: Context, stdout: Writable, signal: AbortSignal, work: (call: Context) => Promise<T>): Promise<T> {
  const call = new ToolCallContext(server, stdout);
  const cancel = () => call.abort(new MktError('the client cancelled the tool call'));
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await work(call);
  } finally {
    signal.removeEventListener('abort', cancel);
    await call.dispose();
  }
}

/** The records a command writes for a tool, from the `skip`th on, as many as fit in `budget`. */
export async function collectRecords(
  server: Context,
  signal: AbortSignal,
  budget: RecordBudget,
  skip: number,
  run: (call: Context) => Promise<void>,
): Promise<{ records: Record<string, unknown>[]; cut: boolean; next: number; oversized: boolean }> {
  const collector = new NdjsonCollector(budget, skip);
  await inToolCall(server, collector, signal, run);
  return { records: budget.records, cut: budget.cut, next: skip + collector.passed, oversized: collector.oversized };
}

/** The key, when there is one, to keep out of every answer. */
async function keyOf(server: Context): Promise<string> {
  try {
    return (await server.settings()).apiKey ?? '';
  } catch {
    return '';
  }
}

/** The longest JSON of an answer's data: twice that, and the envelope, stay under the contract's 100,000 characters. */
const MAX_ANSWER_CHARS = 49_000;

/**
 * A tool's data as its answer, the key made `***` wherever a server may have echoed it. Paged
 * data fits by construction; an answer that is one object of the service's and too large to
 * hold (a fee schedule, the filters' values) is a malformed answer.
 */
export async function answer(server: Context, data: Record<string, unknown>): Promise<ToolAnswer | ToolFailure> {
  const text = redactKey(JSON.stringify(data), await keyOf(server));
  if (text.length > MAX_ANSWER_CHARS) {
    return failure(server, new MalformedResponseError('the service sent more than a tool result may hold', { hint: 'Ask for less: fewer exchanges, or a narrower search.' }));
  }
  return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

/**
 * A usage error in the words of the tool whose arguments it is about: a command's checks name
 * their flags (`--fee-type: unknown value`), which are the tool's arguments `argumentNames`
 * (`fee_type`). Other errors, and other flags, are as they were.
 */
export function inArgumentNames(error: unknown, argumentNames: readonly string[]): unknown {
  if (!(error instanceof UsageError)) return error;
  const named = (text: string) =>
    text.replace(/(?<![\w-])--([a-z]+(?:-[a-z]+)*)\b/g, (flag, name: string) => (argumentNames.includes(name.replaceAll('-', '_')) ? name.replaceAll('-', '_') : flag));
  return new UsageError(named(error.message), { hint: error.hint === undefined ? undefined : named(error.hint), httpStatus: error.httpStatus });
}

/**
 * A failure as a tool's answer: `isError`, and as its text the JSON of `--error-format json`
 * (src/core/error-codes.ts) less the exit code: the stable code, what happened, what to do, and
 * whether trying again may help. It has no `structuredContent`: clients (the SDK's among them)
 * check that against the tool's output schema, which describes its data.
 */
export async function failure(server: Context, error: unknown): Promise<ToolFailure> {
  const { code, message, hint, http_status, retryable } = describeFailure(error);
  const described = { error: { code, message, ...(hint === undefined ? {} : { hint }), ...(http_status === undefined ? {} : { http_status }), retryable } };
  return { content: [{ type: 'text', text: redactKey(JSON.stringify(described), await keyOf(server)) }], isError: true };
}

/** Where a paged answer goes on: the arguments of the call that began it, and the records already answered. */
export interface Paging {
  args: Record<string, unknown>;
  skip: number;
}

/** An opaque cursor: the state to go on from, in base64url JSON. */
export function encodeCursor(state: Paging): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

/** The state of a cursor this server gave, checked by `isState`; anything else is a usage error. */
function decodeCursor<S extends Paging>(cursor: string, isState: (value: unknown) => value is S): S {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!isState(value)) {
    throw new UsageError('the cursor is not one this tool gave', { hint: 'Pass next_cursor of the previous answer as it is, or leave cursor out to start again.' });
  }
  return value;
}

/** Arguments with their keys sorted, the absent left out: to tell whether two calls ask the same. */
const canonical = (args: object): string => JSON.stringify(Object.entries(args).filter(([, value]) => value !== undefined).sort(([a], [b]) => a.localeCompare(b)));

/**
 * Where a call begins: with a `cursor`, where that cursor goes on, the call's other arguments
 * absent or those the cursor stands for; else `start` of the arguments.
 */
export function pagingOf<S extends Paging>(args: Record<string, unknown>, isState: (value: unknown) => value is S, start: (given: Record<string, unknown>) => S): S {
  const { cursor, ...given } = args;
  if (typeof cursor !== 'string') return start(given);
  const state = decodeCursor(cursor, isState);
  if (canonical(given) !== '[]' && canonical(given) !== canonical(state.args)) {
    throw new UsageError('the cursor goes on another call than these arguments', { hint: 'Give the cursor alone, or with the arguments of the call that gave it.' });
  }
  return state;
}
