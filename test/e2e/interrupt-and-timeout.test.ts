import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingServer } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { spawnMkt } from '../helpers/run-mkt.js';
import { useSandbox } from '../helpers/sandbox.js';

// Each answer takes half a second: well past the timeouts below, and long enough that a signal
// sent once a request is logged finds it under way. A walk of a few pages is all --all needs.
const slow = useSandbox({ latencyMs: 500, records: 300 });

function env() {
  return { MKT_BASE_URL: slow.current.url, MKT_API_KEY: slow.current.keys.api_key };
}

describe('Ctrl-C', () => {
  // With --verbose too, the interruption is one line, the last, and no stack trace (issue 39, point 6).
  it.each(['SIGINT', 'SIGTERM'] as const)('%s during a request exits 130 at once, with nothing on stdout: one line, no stack trace, with --verbose', async (signal) => {
    const mkt = spawnMkt(['results', '--all', '--verbose'], { env: env() });
    await mkt.stderrContains('→ GET');
    mkt.child.kill(signal);
    const run = await mkt.result;
    expect(run.code).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').filter((line) => line.startsWith('mkt:'))).toEqual([`mkt: interrupted by ${signal}`]);
    expect(run.stderr).toMatch(new RegExp(`\\nmkt: interrupted by ${signal}\\n$`));
    expect(run.stderr).not.toMatch(/InterruptedError|^\s+at /m);
  });
});

/** A server that sends a 200's headers and the start of its body, then nothing more. */
let stalling: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  stalling = await startRecordingServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    response.write('{"data":[');
  });
});
afterAll(() => stalling.close());
const stallingEnv = () => ({ MKT_BASE_URL: stalling.url, MKT_API_KEY: 'test-key' });

describe('a body that stalls after its headers', () => {
  it('times out like a slow answer: exit 1, naming the host and the timeout', async () => {
    const run = await runInProcess(['results', '--timeout', '0.3', '--retries', '0'], { env: stallingEnv() });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `mkt: gave up after 1 try: no complete answer from ${new URL(stalling.url).host} within 0.3 s\n`
        + 'Raise --timeout, or check the service is up.\n',
    );
  });

  it('SIGINT while it stalls exits 130 at once', async () => {
    const mkt = spawnMkt(['results', '--verbose'], { env: stallingEnv() });
    await mkt.stderrContains('→ GET');
    await new Promise((resolve) => setTimeout(resolve, 100)); // the headers are in
    mkt.child.kill('SIGINT');
    const run = await mkt.result;
    expect(run.code).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').filter((line) => line.startsWith('mkt:'))).toEqual(['mkt: interrupted by SIGINT']);
  });
});

describe('--timeout', () => {
  it('gives up on a slow service with exit 1, naming the host and the timeout', async () => {
    // No back-off between the two tries: the timeout is the point.
    const run = await runInProcess(['fees', 'NYSE', '--timeout', '0.2', '--retries', '1'], { env: env(), maxRetryDelayMs: 0 });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `mkt: gave up after 2 tries: no complete answer from ${new URL(slow.current.url).host} within 0.2 s\n`
        + 'Raise --timeout, or check the service is up.\n',
    );
  });

  it('is per request: a timeout longer than the latency succeeds', async () => {
    const run = await runInProcess(['fees', 'NYSE', '--timeout', '5', '-f', 'json'], { env: env() });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ exchange: 'NYSE' });
  });
});
