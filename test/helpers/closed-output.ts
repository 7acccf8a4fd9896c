import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './run-in-process.js';
import { cleanEnv, killWhenHung, MKT_BIN } from './run-mkt.js';
import { useSandbox } from './sandbox.js';
import { tempDir } from './temp-dir.js';

// Issue 35, point 3: `results --offline` into a reader that goes away, or onto a full device,
// ends as the online walk does. Closing the mirror while pages read ahead were still running in
// DuckDB hung the process or killed it with SIGSEGV.

interface Ending {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  killedAsHung: boolean;
}

/** Runs `node bin/mkt.js args…` with stdout a pipe closed at the first data, or /dev/full. */
function runInto(target: 'closed pipe' | '/dev/full', args: readonly string[], env: Record<string, string>): Promise<Ending> {
  const full = target === '/dev/full' ? openSync('/dev/full', 'w') : undefined;
  const child = spawn(process.execPath, [MKT_BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', full ?? 'pipe', 'pipe'] });
  if (full !== undefined) closeSync(full);
  child.stdout?.once('data', () => child.stdout?.destroy());
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killed = killWhenHung(child);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr, killedAsHung: killed() }));
  });
}

const FORMATS = ['csv', 'ndjson', 'json', 'table', 'parquet'] as const;
type ClosedOutputFormat = (typeof FORMATS)[number];

/** Four run at a time, as readers of one mirror may, so that the loop costs less wall time. */
const AT_ONCE = 4;

/**
 * The run numbered `run`: where its output goes, and its arguments. Runs 0 to 2 × formats − 1
 * take each (format, target) pair once; every 4 × formats runs take each of the ways (target,
 * format, --all or --limit) once.
 */
function wayOf(run: number, formats: readonly ClosedOutputFormat[], limit: number): { target: 'closed pipe' | '/dev/full'; args: string[] } {
  const format = formats[Math.floor(run / 2) % formats.length]!;
  return { target: run % 2 === 0 ? 'closed pipe' : '/dev/full', args: ['results', '--offline', ...(run % 4 < 2 ? ['--all'] : ['--limit', String(limit)]), '-f', format] };
}

export interface ClosedOutputOptions {
  /** The formats the runs take in turn: all five by default. */
  formats?: readonly ClosedOutputFormat[];
  /** The records of the mirror, 3000 by default; --limit takes five sixths of them. */
  records?: number;
}

/**
 * The test of a test file: `runs` runs of `results --offline` from one mirror of 3000 records
 * (or `records`), into a pipe closed at the first data or /dev/full, each of which must end as
 * the online walk does.
 */
export function describeClosedOutputRuns(runs: number, { formats = FORMATS, records = 3000 }: ClosedOutputOptions = {}): void {
  const limit = Math.round((records * 5) / 6);
  const sandbox = useSandbox({ records });
  const mirror = join(tempDir('mkt-mirror-'), 'closed-output.duckdb');
  const env = () => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: mirror });

  beforeAll(async () => {
    expect((await runInProcess(['sync'], { env: env() })).code).toBe(0);
  });

  describe('results --offline into a closed or full output', () => {
    it(`ends in each of ${runs} runs, ${formats === FORMATS ? 'every format' : formats.join(', ')}, --all and --limit: exit 0 at a closed pipe, exit 1 and one line at /dev/full`, async () => {
      const endings: string[] = [];
      const expected: string[] = [];
      for (let first = 0; first < runs; first += AT_ONCE) {
        const ways = Array.from({ length: Math.min(AT_ONCE, runs - first) }, (_, n) => wayOf(first + n, formats, limit));
        const ended = await Promise.all(ways.map(({ target, args }) => runInto(target, args, env())));
        for (const [n, { target, args }] of ways.entries()) {
          const label = `${target} ${args.join(' ')}`;
          endings.push(`${label}: ${JSON.stringify(ended[n])}`);
          expected.push(
            `${label}: ${JSON.stringify({
              code: target === '/dev/full' ? 1 : 0,
              signal: null,
              stderr: target === '/dev/full' ? 'mkt: cannot write to standard output: no space left on device (ENOSPC)\n' : '',
              killedAsHung: false,
            })}`,
          );
        }
      }
      expect(endings).toEqual(expected);
    }, 600_000);
  });
}
