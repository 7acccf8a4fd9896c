import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { useRelays } from '../helpers/relay.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { virtualClock } from '../helpers/virtual-clock.js';

const sandbox = useSandbox({ records: 200 });
const relay = useRelays();

/** The sandbox, behind a relay that answers the first request 429, back in `retryAfter` seconds. */
async function busyAtFirst(retryAfter = '12') {
  let requests = 0;
  const tooMany = { status: 429, text: '{"detail":"Too Many Requests"}', headers: { 'retry-after': retryAfter } };
  return relay(sandbox.current.url, { answer: () => (requests++ === 0 ? tooMany : undefined) });
}

/** Runs mkt against `url` on a clock that skips the waits, stderr a terminal 80 wide or a pipe. */
function runAt(url: string, args: readonly string[], stderrIsTerminal: boolean, mirror = join(tempDir('mkt-waits-'), 'm.duckdb')) {
  return runInProcess(args, {
    maxRetryDelayMs: 30_000,
    env: { MKT_BASE_URL: url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: mirror },
    ...(stderrIsTerminal ? { stderr: { isTTY: true, columns: 80 } } : {}),
    ...virtualClock(),
  });
}

/** stderr without what differs from run to run: seconds taken, the mirror's folder. */
const steady = (stderr: string): string => stderr.replace(/\d+\.\d s\b/g, 'S s').replace(/mkt-waits-\w+/g, 'DIR');

describe('a wait over a second', () => {
  // Loaded beforehand, as a wait of real seconds would give them time to be: this clock skips it at once.
  beforeAll(async () => {
    await Promise.all([import('../../src/io/progress.js'), import('ora')]);
  });

  const commands: [string, string[]][] = [
    ['results', ['results', '--exchange-name', 'NYSE', '-f', 'json']],
    ['results --all', ['results', '--all', '--exchange-name', 'NYSE', '-f', 'json']],
    ['exchanges', ['exchanges', '-f', 'json']],
    ['fees', ['fees', 'NYSE', '-f', 'json']],
    ['compare', ['compare', 'NYSE', 'CBOE', '--volume', '50M', '-f', 'json']],
    ['diff', ['diff', 'NYSE', 'Equity', '--online', '-f', 'json']],
    ['sync', ['sync', '--exchange-name', 'NYSE']],
  ];

  it.each(commands)('%s: shows on a terminal what it waits for and how long, and nothing elsewhere', async (_name, args) => {
    const calm = await runAt(sandbox.current.url, args, false);
    const piped = await runAt((await busyAtFirst()).url, args, false);
    const atTerminal = await runAt((await busyAtFirst()).url, args, true);
    expect(calm.code).toBe(0);
    expect(atTerminal.stderr).toContain('waiting for the rate limit · 12 s');
    // Data and exit code as without the wait; a pipe's stderr has nothing of it.
    for (const busy of [piped, atTerminal]) {
      expect(busy.code).toBe(0);
      expect(busy.stdout).toBe(calm.stdout);
    }
    expect(steady(piped.stderr)).toBe(steady(calm.stderr));
  });

  it('says when it waits less than the server asked, its wait capped', async () => {
    const run = await runAt((await busyAtFirst('3600')).url, ['exchanges', '-f', 'json'], true);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('waiting for the rate limit · 30 s (capped: the server asked for more)');
  });

  it('shows the spacing of --max-rps', async () => {
    const run = await runAt(sandbox.current.url, ['compare', 'NYSE', 'CBOE', '--volume', '50M', '--max-rps', '0.2', '-f', 'json'], true);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('waiting for --max-rps · 5 s');
  });

  it('compare shows where it is across the venues', async () => {
    const run = await runAt(sandbox.current.url, ['compare', 'NYSE', 'CBOE', 'NASDAQ', '--volume', '50M', '-f', 'json'], true);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('venue 1 of 3 · NYSE');
    expect(run.stderr).toContain('venue 3 of 3 · NASDAQ');
  });
});
