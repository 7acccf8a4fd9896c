import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_KEY_HEADER, RESULTS_PATH } from '../../src/api/paths.js';
import { type InProcessOptions, type InProcessRun, runInProcess } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/run-mkt.js';
import { emptyResultsPage, sendJson, startRecordingServer } from '../helpers/recording-server.js';
import { useSandbox } from '../helpers/sandbox.js';

const KEY = 'e2e-secret-key-0001-wxyz';
const OTHER_KEY = 'e2e-other-key-0002-abcd';
const SECRETS = [KEY, OTHER_KEY, 'mkt-sandbox-key-all-exchanges', 'mkt-sandbox-key-scoped', 'wrong-key-9999-zzzz'];

/** Every run of this file, so that the last test can prove no key ever reached the output. */
const runs: InProcessRun[] = [];
async function mkt(args: readonly string[], options: InProcessOptions): Promise<InProcessRun> {
  const run = await runInProcess(args, options);
  runs.push(run);
  return run;
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const mode = (file: string) => statSync(file).mode & 0o777;
const storedJson = (dir: string, name: string): unknown => JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));

describe('mkt auth without verification', () => {
  it('replaces a broken stored key, which every other command refuses', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'credentials.json'), '{"profiles": {"default": {"api_key": 123}}}');
    const env = { MKT_CONFIG_DIR: dir };
    const status = await mkt(['auth', 'status'], { env });
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('is not a string');
    const login = await mkt(['auth', 'login', '--no-verify'], { env, input: `${KEY}\n` });
    expect(login.code).toBe(0);
    expect(storedJson(dir, 'credentials')).toEqual({ profiles: { default: { api_key: KEY } } });
  });


  it('logs in from stdin, shows the status, and logs out, idempotently', async () => {
    const dir = tempConfigDir();
    const env = { MKT_CONFIG_DIR: dir };
    const login = await mkt(['auth', 'login', '--no-verify'], { env, input: `${KEY}\n` });
    expect(login).toMatchObject({
      code: 0,
      stdout: '',
      stderr:
        'Stored the key for profile "default" without checking it.\n'
        + 'warning: profile "default" has no base URL; set one with `mkt config set base_url URL --profile default`.\n',
    });
    expect(storedJson(dir, 'credentials')).toEqual({ profiles: { default: { api_key: KEY } } });
    if (process.platform !== 'win32') {
      expect(mode(join(dir, 'credentials.json'))).toBe(0o600);
      expect(mode(dir)).toBe(0o700);
    }

    const status = await mkt(['auth', 'status'], { env });
    expect(status).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `profile   default\nbase URL  none\nkey       …wxyz (from ${join(dir, 'credentials.json')})\n`,
    });

    const logout = await mkt(['auth', 'logout'], { env });
    expect(logout).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `Removed the key of profile "default" from ${join(dir, 'credentials.json')}.\n`,
    });
    const again = await mkt(['auth', 'logout'], { env });
    expect(again).toMatchObject({ code: 0, stdout: '', stderr: 'Profile "default" had no stored key.\n' });

    const after = await mkt(['auth', 'status'], { env });
    expect(after).toMatchObject({
      code: 3,
      stdout: 'profile   default\nbase URL  none\nkey       none\n',
      stderr: 'mkt: no API key for profile "default"\nRun `mkt auth login --profile default`, or set MKT_API_KEY.\n',
    });
  });

  it('keeps profiles apart, chosen by --profile or MKT_PROFILE, and stores --base-url with the key', async () => {
    const dir = tempConfigDir();
    const env = { MKT_CONFIG_DIR: dir };
    await mkt(['auth', 'login', '--no-verify'], { env, input: KEY });
    const work = await mkt(['auth', 'login', '--no-verify', '--profile', 'work', '--base-url', 'https://work.example.test'], {
      env,
      input: OTHER_KEY,
    });
    expect(work).toMatchObject({ code: 0, stderr: 'Stored the key for profile "work" without checking it.\n' });
    expect(storedJson(dir, 'config')).toEqual({ profiles: { work: { base_url: 'https://work.example.test' } } });

    const byFlag = await mkt(['auth', 'status', '--profile', 'work'], { env });
    expect(byFlag.stdout).toBe(
      'profile   work (from --profile)\n'
      + `base URL  https://work.example.test (from ${join(dir, 'config.json')})\n`
      + 'origin    https://work.example.test (the only one the key is sent to)\n'
      + `key       …abcd (from ${join(dir, 'credentials.json')})\n`,
    );
    const byEnv = await mkt(['auth', 'status'], { env: { ...env, MKT_PROFILE: 'work' } });
    expect(byEnv.stdout.split('\n')[0]).toBe('profile   work (from MKT_PROFILE)');
    expect(byEnv.stdout).toContain('…abcd');

    await mkt(['auth', 'logout', '--profile', 'work'], { env });
    expect(storedJson(dir, 'credentials')).toEqual({ profiles: { default: { api_key: KEY } } });
  });

  it('ranks MKT_API_KEY over the stored key, and --base-url over MKT_BASE_URL over the profile', async () => {
    const dir = tempConfigDir();
    await mkt(['auth', 'login', '--no-verify', '--base-url', 'https://stored.example.test'], { env: { MKT_CONFIG_DIR: dir }, input: KEY });
    const env = { MKT_CONFIG_DIR: dir, MKT_API_KEY: OTHER_KEY, MKT_BASE_URL: 'https://env.example.test' };
    const fromEnv = await mkt(['auth', 'status'], { env });
    expect(fromEnv.stdout).toBe(
      'profile   default\nbase URL  https://env.example.test (from MKT_BASE_URL)\n'
        + 'origin    https://env.example.test (the only one the key is sent to)\nkey       …abcd (from MKT_API_KEY)\n',
    );
    const fromFlag = await mkt(['auth', 'status', '--base-url', 'http://127.0.0.1:1'], { env });
    expect(fromFlag.stdout.split('\n')[1]).toBe('base URL  http://127.0.0.1:1 (from --base-url)');
  });

  it('warns at logout that MKT_API_KEY still applies', async () => {
    const run = await mkt(['auth', 'logout'], { env: { MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 0,
      stderr: 'Profile "default" had no stored key.\nwarning: MKT_API_KEY is still set in this environment; mkt will keep using it.\n',
    });
  });

  it.each([
    ['an empty stdin', ['auth', 'login', '--no-verify'], {}, '\n',
      'mkt: no API key on standard input\n'
      + 'Pipe the key in, e.g. `mkt auth login < key.txt`, or run `mkt auth login` at a terminal to be asked for it.\n'],
    ['a key with spaces', ['auth', 'login', '--no-verify'], {}, `${KEY} ${KEY}\n`,
      'mkt: the API key from standard input contains spaces, control or non-ASCII characters\n'
      + 'Pass the key exactly as the operator issued it.\n'],
    ['a bad profile name', ['auth', 'login', '--no-verify', '--profile', 'a/b'], {}, KEY,
      'mkt: invalid profile name "a/b" (from --profile)\n'
      + 'A profile name is up to 64 letters, digits, "-" and "_", starting with a letter or digit.\n'],
    ['a bad MKT_BASE_URL', ['auth', 'status'], { MKT_BASE_URL: 'ftp://x' }, '',
      'mkt: MKT_BASE_URL must be an http:// or https:// URL, not "ftp://x"\nFix or unset MKT_BASE_URL.\n'],
    ['a login to check without a base URL', ['auth', 'login'], {}, KEY,
      'mkt: no base URL for profile "default": the key cannot be checked\n'
      + 'Pass --base-url URL (it is stored with the key), set MKT_BASE_URL, or add --no-verify.\n'],
  ])('exits 2 on %s, storing nothing', async (_name, args, extraEnv, input, stderr) => {
    const dir = tempConfigDir();
    const run = await mkt(args, { env: { MKT_CONFIG_DIR: dir, ...extraEnv }, input });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr });
    expect(existsSync(join(dir, 'credentials.json'))).toBe(false);
  });

  it('takes no key as an argument', async () => {
    const run = await mkt(['auth', 'login', KEY], { input: '' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });
});

describe('mkt auth login with verification', () => {
  it('checks the key with one results call of one record, then says what it reaches', async () => {
    const server = await startRecordingServer((_request, response) =>
      sendJson(response, 200, { ...emptyResultsPage(1), total_records: 3000, total_pages: 3000 }));
    servers.push(server);
    const dir = tempConfigDir();
    const run = await mkt(['auth', 'login', '--base-url', server.url], { env: { MKT_CONFIG_DIR: dir }, input: `${KEY}\n` });
    expect(run).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `Logged in to ${server.url} as profile "default": the key reaches 3,000 fee schedule results.\n`,
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.url).toBe(`${RESULTS_PATH}?page_size=1`);
    expect(server.requests[0]?.headers[RESULTS_KEY_HEADER]).toBe(KEY);
    expect(storedJson(dir, 'credentials')).toEqual({ profiles: { default: { api_key: KEY } } });
    expect(storedJson(dir, 'config')).toEqual({ profiles: { default: { base_url: server.url } } });
  });

  it('stores nothing when the service rejects the key, and exits 3', async () => {
    const server = await startRecordingServer((_request, response) =>
      sendJson(response, 401, {
        message: 'Not authorized: invalid API key',
        data: [],
        query_time: null,
        success: false,
        disable_jsonable_encoder: false,
        status_code: 401,
      }));
    servers.push(server);
    const dir = tempConfigDir();
    const run = await mkt(['auth', 'login', '--base-url', server.url], { env: { MKT_CONFIG_DIR: dir }, input: 'wrong-key-9999-zzzz' });
    expect(run).toMatchObject({
      code: 3,
      stdout: '',
      stderr: 'mkt: the service rejected the API key (401)\nNothing was stored. Check the key and try again.\n',
    });
    expect(existsSync(join(dir, 'credentials.json'))).toBe(false);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

describe('mkt auth login against the sandbox', () => {
  const sandbox = useSandbox({ records: 3000 });

  it('reaches every result with the demo key', async () => {
    const dir = tempConfigDir();
    const { url, keys } = sandbox.current;
    const run = await mkt(['auth', 'login', '--base-url', url], { env: { MKT_CONFIG_DIR: dir }, input: keys.api_key });
    expect(run).toMatchObject({
      code: 0,
      stderr: `Logged in to ${url} as profile "default": the key reaches 3,000 fee schedule results.\n`,
    });
  });

  it('reaches fewer with the scoped key, and then serves data with the stored profile', async () => {
    const dir = tempConfigDir();
    const { url, keys } = sandbox.current;
    const page = (await (await fetch(`${url}${RESULTS_PATH}?page_size=1`, { headers: { [RESULTS_KEY_HEADER]: keys.scoped_api_key } })).json()) as {
      total_records: number;
    };
    expect(page.total_records).toBeLessThan(3000);
    const env = { MKT_CONFIG_DIR: dir };
    const login = await mkt(['auth', 'login', '--profile', 'scoped', '--base-url', url], { env, input: keys.scoped_api_key });
    expect(login.stderr).toBe(
      `Logged in to ${url} as profile "scoped": the key reaches ${page.total_records.toLocaleString('en-US')} fee schedule results.\n`,
    );
    const results = await mkt(['results', '--profile', 'scoped', '--page-size', '1', '--format', 'json'], { env });
    expect(results.code).toBe(0);
    expect(JSON.parse(results.stdout)).toHaveLength(1);
  });
});

describe('mkt auth list, and a profile that is not stored', () => {
  async function twoProfiles(): Promise<string> {
    const dir = tempConfigDir();
    await mkt(['auth', 'login', '--profile', 'prod', '--no-verify', '--base-url', 'https://data.example.com'], { env: { MKT_CONFIG_DIR: dir }, input: KEY });
    await mkt(['auth', 'login', '--profile', 'dev', '--no-verify'], { env: { MKT_CONFIG_DIR: dir }, input: OTHER_KEY });
    return dir;
  }

  it('lists every stored profile, marks the one in use, and shows 4 characters of each key', async () => {
    const dir = await twoProfiles();
    const run = await mkt(['auth', 'list', '-f', 'csv'], { env: { MKT_CONFIG_DIR: dir, MKT_PROFILE: 'prod' } });
    expect(run).toMatchObject({
      code: 0,
      stdout: 'profile,current,base_url,key\r\ndev,false,,…abcd\r\nprod,true,https://data.example.com,…wxyz\r\n',
      stderr: '',
    });
  });

  it('says how to store one when there is none', async () => {
    const run = await mkt(['auth', 'list', '-f', 'json'], { env: { MKT_CONFIG_DIR: tempConfigDir() } });
    expect(run).toMatchObject({ code: 0, stdout: '[]\n', stderr: 'No profile is stored: `mkt auth login` stores one.\n' });
  });

  it.each([
    [['fees', 'NYSE', '--profile', 'prdo'], 'no profile "prdo" is stored (--profile); did you mean prod?'],
    [['auth', 'status', '--profile', 'dve'], 'no profile "dve" is stored (--profile); did you mean dev?'],
    [['results', '--profile', 'staging'], 'no profile "staging" is stored (--profile)'],
  ])('suggests the stored profile closest to a typo: %j, exit 2', async (args, message) => {
    const dir = await twoProfiles();
    const run = await mkt(args, { env: { MKT_CONFIG_DIR: dir } });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mkt: ${message}\nStored profiles: dev, prod. To create it: mkt auth login --profile ${args.at(-1)}\n`);
  });

  it('takes any profile name when the environment gives the key and the base URL', async () => {
    const server = await startRecordingServer();
    servers.push(server);
    const run = await mkt(['results', '--profile', 'ci'], { env: { MKT_CONFIG_DIR: tempConfigDir(), MKT_API_KEY: KEY, MKT_BASE_URL: server.url } });
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });
});

describe('mkt auth status --check', () => {
  const sandbox = useSandbox({ records: 3000 });

  it('says what an accepted key reaches, with one request', async () => {
    const { url, keys } = sandbox.current;
    const run = await mkt(['auth', 'status', '--check'], { env: { MKT_BASE_URL: url, MKT_API_KEY: keys.api_key } });
    expect(run).toMatchObject({
      code: 0,
      stdout:
        `profile   default\nbase URL  ${url} (from MKT_BASE_URL)\norigin    ${url} (the only one the key is sent to)\nkey       …nges (from MKT_API_KEY)\n`
        + 'check     accepted: the key reaches 3,000 fee schedule results\n',
      stderr: '',
    });
  });

  it('exits 3 when the service rejects the key', async () => {
    const { url } = sandbox.current;
    const run = await mkt(['auth', 'status', '--check'], { env: { MKT_BASE_URL: url, MKT_API_KEY: 'wrong-key-9999-zzzz' } });
    expect(run).toMatchObject({
      code: 3,
      stdout: `profile   default\nbase URL  ${url} (from MKT_BASE_URL)\norigin    ${url} (the only one the key is sent to)\nkey       …zzzz (from MKT_API_KEY)\n`,
      stderr: 'mkt: the service rejected the API key (401)\nMKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.\n',
    });
  });

  it('sends nothing without --check', async () => {
    const server = await startRecordingServer();
    servers.push(server);
    const run = await mkt(['auth', 'status'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(0);
  });
});

// Tests run in order, so this one sees every run above.
it('never printed a key, whole or beyond its last 4 characters', () => {
  expect(runs.length).toBeGreaterThan(15);
  const output = runs.map((run) => `${run.stdout}\n${run.stderr}`).join('\n');
  for (const secret of SECRETS) expect(output).not.toContain(secret.slice(0, -4));
});
