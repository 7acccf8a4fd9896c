import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { virtualClock } from '../helpers/virtual-clock.js';

const clean = useSandbox({ records: 300, seed: 7 });
const faulty = useSandbox({ records: 300, seed: 7, faults: true });
// The limited sandboxes count their windows on the clock the client waits on, which skips its
// waits: how the client spaces its requests is the point, not the seconds that spacing takes.
const clock = virtualClock();
const limited = useSandbox({ records: 1000, seed: 7, rate: { requests: 10, seconds: 1 }, now: clock.now });
const paced = useSandbox({ records: 1000, seed: 7, rate: { requests: 10, seconds: 1 }, now: clock.now });

const env = (sandbox: typeof clean) => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key });

describe('--faults: nothing is lost', () => {
  // A fault is met and retried in the HTTP client (src/http/retry.ts), before the walk hands a
  // page to the writer: one format that streams a line per record, and Parquet's binary pages,
  // show that no fault reaches the output; each format's writing is tested where it is the point.
  it.each(['ndjson', 'parquet'])('results --all as %s is byte-identical with and without faults', async (format) => {
    const dir = tempDir('mkt-faults-');
    const outputs: Buffer[] = [];
    for (const [name, sandbox] of [['clean', clean], ['faulty', faulty]] as const) {
      const file = join(dir, `${name}.out`);
      const args = ['results', '--all', '--page-size', '25', '--format', format, '-o', file, '--verbose'];
      // What is lost to faults is the point here, not how long the client waits before trying again.
      const run = await runInProcess(args, { env: env(sandbox), maxRetryDelayMs: 0 });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('');
      if (name === 'faulty') {
        // All three kinds of fault were met and survived: a 503 page, a 429, a cut 200.
        expect(run.stderr).toMatch(/← 503 /);
        expect(run.stderr).toMatch(/← 429 /);
        expect(run.stderr).toMatch(/cut|not JSON/);
      }
      expect(run.stderr).not.toContain(sandbox.current.keys.api_key);
      outputs.push(readFileSync(file));
    }
    expect(outputs[0]?.length).toBeGreaterThan(1000);
    expect(outputs[1]?.equals(outputs[0] as Buffer)).toBe(true);
  });
});

describe('--rate: slows down instead of hammering', () => {
  it('walks 40 pages under a 10-per-second limit, provoking only a few 429s', async () => {
    const run = await runInProcess(['results', '--all', '--page-size', '25', '-f', 'ndjson', '--verbose'], { env: env(limited), ...clock });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1000);
    const requests = run.stderr.split('\n').filter((line) => line.startsWith('→ GET')).length;
    const throttled = run.stderr.split('\n').filter((line) => line.startsWith('← 429')).length;
    expect(requests - throttled).toBe(40);
    expect(throttled).toBeLessThanOrEqual(5);
  });

  it('--max-rps paces the requests without a single 429', async () => {
    const run = await runInProcess(['results', '--limit', '200', '--page-size', '25', '-f', 'ndjson', '--max-rps', '8', '--verbose'], {
      env: env(paced),
      ...clock,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(200);
    expect(run.stderr).not.toMatch(/← 429/);
  });
});
