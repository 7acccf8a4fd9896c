import { clearLine, clearScreenDown, cursorTo, moveCursor } from 'node:readline';
import { PassThrough, type Readable, Writable } from 'node:stream';
import type { Deps } from '../../src/core/deps.js';
import type { Sleep } from '../../src/core/waits.js';
import { run } from '../../src/main.js';
import { cleanEnv } from './run-mkt.js';

/** What a terminal reports about itself; absent on a pipe or a file, as for `process.stdout`. */
export interface StreamShape {
  isTTY?: boolean;
  /** Terminal width in characters. */
  columns?: number;
}

export interface InProcessOptions {
  /** Variables on top of a clean environment (no MKT_*, NO_COLOR, FORCE_COLOR, CLICOLOR*, XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME; MKT_CONFIG_DIR, MKT_CACHE_DIR and MKT_DATA_DIR fresh paths, made when mkt first writes there). `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** What stdin holds; it is then ended, as `echo … | mkt` would. Empty by default. */
  input?: string;
  /** stdin as a stream (a file a script's stdin was copied to), in place of `input`. */
  stdin?: Readable;
  /** stdout as a terminal of some width; a pipe by default. */
  stdout?: StreamShape;
  /** stderr as a terminal of some width; a pipe by default. */
  stderr?: StreamShape;
  /** stderr written into stdout's stream, as both go to one terminal: `stderr` then holds the same text as `stdout`. */
  stderrIntoStdout?: boolean;
  /** The clock; Date.now by default. */
  now?: () => number;
  /** How the HTTP client sleeps, on the clock of `now` (virtualClock); a real sleep by default. */
  sleep?: Sleep;
  /** The longest wait between two tries of a request (Deps.maxRetryDelayMs): 0 where back-off is not the point. */
  maxRetryDelayMs?: number;
  /** Pages a sync stages between two commits (Deps.syncCommitPages): a few where a commit is the point. */
  syncCommitPages?: number;
  /** The most rows one read of `results --offline` takes (Deps.offlineReadRows): a few pages where a walk past such reads is the point. */
  offlineReadRows?: number;
}

export interface InProcessRun {
  /** What run() returned: the exit code `mkt` would exit with. */
  code: number;
  /** stdout as UTF-8 text. */
  stdout: string;
  stderr: string;
  /** stdout exactly as written, for binary formats (Parquet). */
  stdoutBytes: Buffer;
}

/**
 * A Writable that keeps every byte written to it. With `isTTY`, it also has the cursor methods
 * of a tty.WriteStream (written as the escape sequences readline writes), which spinners call.
 */
export class MemoryOutput extends Writable {
  readonly chunks: Buffer[] = [];
  isTTY?: boolean;
  columns?: number;
  rows?: number;

  constructor(shape: StreamShape = {}) {
    super({ decodeStrings: true });
    if (shape.isTTY !== undefined) this.isTTY = shape.isTTY;
    if (shape.columns !== undefined) this.columns = shape.columns;
    if (shape.isTTY) {
      this.rows = 50;
      Object.assign(this, {
        // readline takes a function in place of `y`, as tty.WriteStream does.
        cursorTo: (x: number, y?: number, callback?: () => void) => cursorTo(this, x, y, callback),
        moveCursor: (dx: number, dy: number, callback?: () => void) => moveCursor(this, dx, dy, callback),
        clearLine: (dir: -1 | 0 | 1, callback?: () => void) => clearLine(this, dir, callback),
        clearScreenDown: (callback?: () => void) => clearScreenDown(this, callback),
        getWindowSize: () => [this.columns ?? 80, this.rows ?? 50],
        getColorDepth: () => 8,
        hasColors: (count = 16) => count <= 256,
      });
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    done();
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  text(): string {
    return this.bytes().toString('utf8');
  }
}

/** The Deps run() takes from the process, made of memory streams and a clean environment. */
export function memoryDeps(options: InProcessOptions = {}): Deps & { stdout: MemoryOutput; stderr: MemoryOutput } {
  const stdin = options.stdin ?? new PassThrough().end(options.input ?? '');
  const stdout = new MemoryOutput(options.stdout);
  return {
    stdin,
    stdout,
    stderr: options.stderrIntoStdout ? stdout : new MemoryOutput(options.stderr),
    env: cleanEnv(options.env ?? {}),
    now: options.now ?? Date.now,
    sleep: options.sleep,
    maxRetryDelayMs: options.maxRetryDelayMs,
    syncCommitPages: options.syncCommitPages,
    offlineReadRows: options.offlineReadRows,
  };
}

/**
 * Runs `mkt args…` in this process: `run(argv, deps)` from src/main.ts with memory streams,
 * as runMkt runs `node bin/mkt.js` (same options and result, but for the signal). run() installs
 * SIGINT/SIGTERM listeners only while it runs, so runs may follow one another in a file.
 * What only a process shows (signals, bin/mkt.js, a real terminal or pipe) needs runMkt.
 */
export async function runInProcess(args: readonly string[], options: InProcessOptions = {}): Promise<InProcessRun> {
  const deps = memoryDeps(options);
  const code = await run(args, deps);
  // Writes queued behind a full buffer land on the next turns; a process would flush them before exiting.
  await new Promise((resolve) => setImmediate(resolve));
  const stdoutBytes = deps.stdout.bytes();
  return { code, stdout: stdoutBytes.toString('utf8'), stderr: deps.stderr.text(), stdoutBytes };
}
