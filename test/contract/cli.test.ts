import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RESULTS_KEY_HEADER, RESULTS_PATH } from '../../src/api/paths.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cleanEnv, MKT_BIN } from '../helpers/run-mkt.js';

const DIST_BUNDLE = fileURLToPath(new URL('../../dist/bundle/mkt.cjs', import.meta.url));

interface Started {
  firstLine: string;
  exit: Promise<{ code: number | null; stdout: string }>;
  stop: (signal?: NodeJS.Signals) => void;
}

/** Spawns `mkt sandbox …` (it serves until a signal) and resolves once it has printed its first line. */
function startCli(args: readonly string[]): Promise<Started> {
  const child = spawn(process.execPath, [MKT_BIN, 'sandbox', ...args], { env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  const exit = new Promise<{ code: number | null; stdout: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout }));
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const hadLine = stdout.includes('\n');
      stdout += chunk;
      if (!hadLine && stdout.includes('\n')) {
        resolve({ firstLine: stdout.slice(0, stdout.indexOf('\n')), exit, stop: (signal = 'SIGTERM') => child.kill(signal) });
      }
    });
    void exit.then(({ code }) => reject(new Error(`mkt sandbox exited with ${code} before it was ready`)));
  });
}

describe('mkt sandbox (the built CLI)', () => {
  it('has a build to run', () => {
    expect(existsSync(DIST_BUNDLE), 'dist/ is missing: run `npm run build` first').toBe(true);
  });

  it('prints one JSON line when ready, serves, and exits 0 on SIGTERM', async () => {
    const sandbox = await startCli(['--port', '0', '--json']);
    const ready = JSON.parse(sandbox.firstLine) as Record<string, string>;
    expect(Object.keys(ready)).toEqual(['url', 'api_key', 'scoped_api_key']);
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${ready.url}${RESULTS_PATH}?page_size=2`, { headers: { [RESULTS_KEY_HEADER]: ready.api_key! } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(2);
    sandbox.stop();
    const { code, stdout } = await sandbox.exit;
    expect(code).toBe(0);
    expect(stdout).toBe(`${sandbox.firstLine}\n`);
  });

  it('serves the 2026 shape with --shape 2026, and names it in the ready line', async () => {
    const sandbox = await startCli(['--port', '0', '--json', '--records', '10', '--shape', '2026']);
    const ready = JSON.parse(sandbox.firstLine) as Record<string, string>;
    expect(Object.keys(ready)).toEqual(['url', 'api_key', 'scoped_api_key', 'shape']);
    expect(ready.shape).toBe('2026');
    const response = await fetch(`${ready.url}${RESULTS_PATH}?page_size=2`, { headers: { [RESULTS_KEY_HEADER]: ready.api_key! } });
    const body = (await response.json()) as { data: { record_id: string }[]; meta: { record_count: number } };
    expect(body.meta.record_count).toBe(10);
    expect(body.data.map((record) => typeof record.record_id)).toEqual(['string', 'string']);
    sandbox.stop();
    expect((await sandbox.exit).code).toBe(0);
  });

  it('exits 0 at SIGTERM with connections still open: one idle after an answer, one with half a request, one that sent nothing', async () => {
    const sandbox = await startCli(['--port', '0', '--json', '--records', '10']);
    const { url, api_key: key } = JSON.parse(sandbox.firstLine) as Record<string, string>;
    const port = Number(new URL(url!).port);
    const open = (): Promise<Socket> =>
      new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => resolve(socket)).on('error', reject);
      });
    const [answered, halfway, silent] = await Promise.all([open(), open(), open()]);
    const sockets = [answered, halfway, silent];
    for (const socket of sockets) socket.on('error', () => {});
    const firstBytes = new Promise((resolve) => answered.once('data', resolve));
    answered.write(`GET ${RESULTS_PATH}?page_size=1 HTTP/1.1\r\nHost: x\r\n${RESULTS_KEY_HEADER}: ${key}\r\n\r\n`);
    await firstBytes;
    halfway.write(`GET ${RESULTS_PATH} HTTP/1.1\r\nHost: x\r\n`);
    sandbox.stop('SIGTERM');
    // 0, not the 130 of the grace period's forced exit: the sandbox closed every connection itself.
    // The deadline only keeps a hang from stalling the suite.
    const exited = await Promise.race([sandbox.exit, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000).unref())]);
    for (const socket of sockets) socket.destroy();
    expect(exited?.code).toBe(0);
  });

  it('prints its URL and both keys as text without --json, and exits 0 on SIGINT', async () => {
    const sandbox = await startCli(['--records', '10']);
    sandbox.stop('SIGINT');
    const { code, stdout } = await sandbox.exit;
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Sandbox listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(stdout).toContain('mkt-sandbox-key-all-exchanges');
    expect(stdout).toContain('mkt-sandbox-key-scoped');
  });

  // This test and the next run `mkt` in-process: they end before serving, and need no signal.
  it('exits 1 with a hint when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const run = await runInProcess(['sandbox', '--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`mkt: cannot listen on 127.0.0.1:${port} (EADDRINUSE).\nPick another port, or --port 0 for a free one.\n`);
    } finally {
      taken.close();
    }
  });

  it('rejects bad flag values with exit code 2 before starting', async () => {
    for (const args of [['--shape', 'v3'], ['--rate', '10'], ['--port', '-1'], ['--port', '65536'], ['--records', 'many'], ['--latency', '1.5'], ['--seed', '-3']]) {
      const run = await runInProcess(['sandbox', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(args[0]);
    }
  });
});

describe('mkt --sandbox --sandbox-shape', () => {
  it('runs the command against an in-process sandbox of that shape', async () => {
    const run = await runInProcess(['--sandbox', '--sandbox-shape', '2026', 'exchanges', '-f', 'json']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"nasdaq_phlx"');
    expect(run.stdout).not.toContain('NASDAQ_PHLX');
  });

  it('is a usage error without --sandbox, or with a shape the sandbox does not speak', async () => {
    expect(await runInProcess(['--sandbox-shape', '2026', 'exchanges'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mkt: --sandbox-shape needs --sandbox\nIt picks the shape of the in-process sandbox: `mkt --sandbox --sandbox-shape 2026 results`.\n',
    });
    expect(await runInProcess(['--sandbox', '--sandbox-shape', 'v3', 'exchanges'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "mkt: option '--sandbox-shape <shape>' argument 'v3' is invalid. Allowed choices are interface, 2026.\nRun `mkt --help` for usage.\n",
    });
  });
});
