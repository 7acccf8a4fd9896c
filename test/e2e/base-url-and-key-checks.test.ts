import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/run-mkt.js';
import { runMktOnFiles } from '../helpers/run-on-files.js';
import { startRecordingServer } from '../helpers/recording-server.js';

// Issue 14, points 7 and 8: credentials in a base URL and oversized keys are usage errors, and
// the messages quote neither the password nor the key.
const KEY = 'test-key-0123456789abcdef';
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function recorder() {
  const server = await startRecordingServer();
  servers.push(server);
  return server;
}

describe('a base URL with user:password@ is refused (point 7)', () => {
  it('from --base-url, sending nothing', async () => {
    const server = await recorder();
    const withPassword = server.url.replace('http://', 'http://alice:hunter2@');
    const run = await runInProcess(['results', '--base-url', withPassword], { env: { MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        `mkt: --base-url must not carry a user name or password (${server.url}/): the service does not authenticate that way\n`
        + 'Give the URL without `user:password@`, and the key with `mkt auth login` or MKT_API_KEY.\n',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('from MKT_BASE_URL', async () => {
    const server = await recorder();
    const run = await runInProcess(['results'], {
      env: { MKT_API_KEY: KEY, MKT_BASE_URL: server.url.replace('http://', 'http://alice:hunter2@') },
    });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `mkt: MKT_BASE_URL must not carry a user name or password (${server.url}/): the service does not authenticate that way\nFix or unset MKT_BASE_URL.\n`,
    });
    expect(server.requests).toHaveLength(0);
  });

  it('from `mkt config set base_url`, storing nothing', async () => {
    const set = await runInProcess(['config', 'set', 'base_url', 'https://alice:hunter2@example.com/']);
    expect(set.code).toBe(2);
    expect(set.stdout).toBe('');
    expect(set.stderr).toContain('must not carry a user name or password (https://example.com/)');
    expect(set.stderr).not.toContain('hunter2');
    expect(set.stderr).not.toContain('alice');
  });

  it('a user name alone is refused too', async () => {
    const run = await runInProcess(['results', '--base-url', 'https://alice@example.com'], { env: { MKT_API_KEY: KEY } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mkt: --base-url must not carry a user name or password \(https:\/\/example\.com\/\)/);
  });
});

describe('a key longer than 4 KiB is refused (point 8)', () => {
  const long = 'k'.repeat(4097);

  it('from MKT_API_KEY, sending nothing and quoting nothing of it', async () => {
    const server = await recorder();
    const run = await runInProcess(['results'], { env: { MKT_API_KEY: long, MKT_BASE_URL: server.url } });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'mkt: the API key from MKT_API_KEY is 4097 characters, more than the 4 KiB a key may be\n'
        + 'Pass the key exactly as the operator issued it, not a file that holds more.\n',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('from `auth login` on standard input, storing nothing', async () => {
    const login = await runInProcess(['auth', 'login', '--no-verify'], { input: `${long}\n` });
    expect(login).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'mkt: the API key from standard input is 4097 characters, more than the 4 KiB a key may be\n'
        + 'Pass the key exactly as the operator issued it, not a file that holds more.\n',
    });
  });

  it('from `auth login` on an endless standard input, reading no more than 64 KiB of it', async () => {
    const configDir = tempConfigDir();
    const run = await runMktOnFiles(['auth', 'login', '--no-verify'], { stdin: '/dev/zero', env: { MKT_CONFIG_DIR: configDir } });
    expect(run).toEqual({
      code: 2,
      stderr:
        'mkt: standard input holds more than 64 KiB, more than the 4 KiB a key may be\n'
        + 'Pass the key exactly as the operator issued it, not a file that holds more.\n',
    });
    expect(readdirSync(configDir)).toEqual([]);
  });

  it('accepts a key of exactly 4 KiB', async () => {
    const server = await recorder();
    const run = await runInProcess(['results'], { env: { MKT_API_KEY: 'k'.repeat(4096), MKT_BASE_URL: server.url } });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
  });
});
