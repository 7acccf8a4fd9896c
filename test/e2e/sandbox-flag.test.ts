import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/run-mkt.js';
import { startRecordingServer } from '../helpers/recording-server.js';

const KEY = 'e2e-secret-key-0001-wxyz';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function recordingServer() {
  const server = await startRecordingServer();
  servers.push(server);
  return server;
}

/** --sandbox is honoured or refused (exit 2, nothing sent, nothing stored): never ignored. */
describe('--sandbox', () => {
  it('with --base-url is a usage error, and nothing reaches the URL', async () => {
    const server = await recordingServer();
    const run = await runInProcess(['--sandbox', '--base-url', server.url, 'fees', 'NYSE'], { env: { MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'mkt: give either --sandbox or --base-url, not both\n'
        + '--sandbox starts its own server with a demo key; --base-url names the service to use instead.\n',
    });
    expect(server.requests).toEqual([]);
  });

  it('outranks MKT_BASE_URL, as a flag outranks a variable', async () => {
    const server = await recordingServer();
    const run = await runInProcess(['--sandbox', 'fees', 'NYSE', '-f', 'json'], { env: { MKT_BASE_URL: server.url } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ exchange: 'NYSE' });
    expect(server.requests).toEqual([]);
  });

  it('is refused by auth login, which reads and stores nothing', async () => {
    const server = await recordingServer();
    const dir = tempConfigDir();
    const run = await runInProcess(['auth', 'login', '--sandbox'], { env: { MKT_CONFIG_DIR: dir, MKT_BASE_URL: server.url }, input: `${KEY}\n` });
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stdoutBytes: Buffer.alloc(0),
      stderr:
        'mkt: --sandbox does not apply to mkt auth login\n'
        + 'The sandbox needs no key or settings: `mkt --sandbox fees NYSE` runs a data command against it.\n',
    });
    expect(server.requests).toEqual([]);
    expect(existsSync(join(dir, 'credentials.json'))).toBe(false);
  });

  it('is refused by auth logout, which keeps the stored key', async () => {
    const dir = tempConfigDir();
    const env = { MKT_CONFIG_DIR: dir };
    expect((await runInProcess(['auth', 'login', '--no-verify'], { env, input: `${KEY}\n` })).code).toBe(0);
    const stored = readFileSync(join(dir, 'credentials.json'), 'utf8');
    const run = await runInProcess(['auth', 'logout', '--sandbox'], { env });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mkt: --sandbox does not apply to mkt auth logout\nThe sandbox needs no key or settings: `mkt --sandbox fees NYSE` runs a data command against it.\n',
    });
    expect(readFileSync(join(dir, 'credentials.json'), 'utf8')).toBe(stored);
  });

  it('is honoured by auth status, which shows the sandbox', async () => {
    const run = await runInProcess(['auth', 'status', '--sandbox']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      /^profile {3}default\nbase URL {2}(http:\/\/127\.0\.0\.1:\d+) \(from --sandbox\)\norigin {4}\1 \(the only one the key is sent to\)\nkey {7}…\S{4} \(from --sandbox\)\n$/,
    );
  });

  it.each([['config', 'get', 'timeout'], ['filters'], ['completion', 'bash'], ['sandbox', '--port', '0']])('is refused by mkt %s, which reads no service', async (...args) => {
    const run = await runInProcess([...args, '--sandbox']);
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `mkt: --sandbox does not apply to mkt ${args[0]}${args[0] === 'config' ? ' get' : ''}\n`
        + 'The sandbox needs no key or settings: `mkt --sandbox fees NYSE` runs a data command against it.\n',
    });
  });
});
