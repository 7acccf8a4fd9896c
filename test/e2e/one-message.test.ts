import { writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeExchangeList } from '../../src/config/exchange-cache.js';
import { run } from '../../src/main.js';
import { memoryDeps, runInProcess } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/run-mkt.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 39, point 6: one message per mistake, in mkt's own words.
const sandbox = useSandbox({ records: 30 });

describe('a value outside a fixed list', () => {
  it.each([
    [['results', '-f', 'jsn'], 'mkt: --format: unknown value "jsn"; did you mean json?\nAllowed values: table, json, ndjson, csv, parquet.\n'],
    [['--format', 'yaml', 'filters'], 'mkt: --format: unknown value "yaml"\nAllowed values: table, json, ndjson, csv, parquet.\n'],
    [['completion', 'tcsh'], 'mkt: <shell>: unknown value "tcsh"; did you mean bash?\nAllowed values: bash, zsh, fish.\n'],
    [['completion', 'fihs'], 'mkt: <shell>: unknown value "fihs"; did you mean fish?\nAllowed values: bash, zsh, fish.\n'],
    [['config', 'set', 'formt', 'json'], 'mkt: unknown setting "formt"; did you mean format?\nSettings are: base_url, format, timeout, retries, exchanges_auth, results_auth.\n'],
    [['config', 'set', 'format', 'jsn'], 'mkt: format must be one of table, json, ndjson, csv, parquet, not "jsn"; did you mean json?\n'],
  ])('mkt %j gets a did-you-mean and the allowed values, exit 2, nothing sent', async (args, stderr) => {
    expect(await runInProcess(args)).toMatchObject({ code: 2, stdout: '', stderr });
  });

  it.each([
    [['resluts'], "mkt: unknown command 'resluts'; did you mean results?\nRun `mkt --help` for usage.\n"],
    [['results', '--exchange-nam', 'NYSE'], "mkt: unknown option '--exchange-nam'; did you mean --exchange-name?\nRun `mkt results --help` for usage.\n"],
  ])('mkt %j gets commander\'s did-you-mean on the line of the error, as mkt writes it', async (args, stderr) => {
    expect(await runInProcess(args)).toMatchObject({ code: 2, stdout: '', stderr });
  });

  it('takes a format in any case, as the filters take their values', async () => {
    const run = await runInProcess(['filters', '-f', 'JSON']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toBeInstanceOf(Array);
  });
});

describe('an exchange typed wrong', () => {
  /** The sandbox as the user's service, with `mkt exchanges` run once: a kept list of three venues. */
  function service(): Record<string, string> {
    const cacheDir = tempDir('mkt-cache-');
    writeExchangeList(cacheDir, 'default', {
      source: 'service',
      fetchedAt: '2026-11-01T00:00:00.000Z',
      exchanges: ['NYSE', 'NASDAQ', 'CBOE'].map((id) => ({ id, name: null, records: null })),
    });
    return { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_CACHE_DIR: cacheDir };
  }
  const DID_YOU_MEAN_NYSE = 'Did you mean NYSE? `mkt exchanges` lists the exchanges your key reaches.\n';

  it.each([['fees'], ['rules'], ['order-types'], ['historical']])('mkt %s NYS is one error with the kept list\'s did-you-mean, exit 4', async (command) => {
    const run = await runInProcess([command, 'NYS'], { env: service() });
    expect(run).toMatchObject({ code: 4, stdout: '', stderr: `mkt: unknown exchange NYS (404)\n${DID_YOU_MEAN_NYSE}` });
  });

  it('mkt diff NYS Equity is one error with the did-you-mean, exit 4', async () => {
    const run = await runInProcess(['diff', 'NYS', 'Equity', '--online'], { env: service() });
    expect(run).toMatchObject({ code: 4, stdout: '', stderr: `mkt: no results for NYS Equity\n${DID_YOU_MEAN_NYSE}` });
  });

  it('mkt compare nyse is one error, without a kept list too', async () => {
    expect(await runInProcess(['compare', 'nyse'], { env: { ...service(), MKT_CACHE_DIR: tempDir('mkt-cache-') } })).toMatchObject({
      code: 4,
      stdout: '',
      stderr: 'mkt: unknown exchange nyse (404)\nCheck the identifier: `mkt exchanges` lists the exchanges your key reaches.\n',
    });
    expect(await runInProcess(['compare', 'NYS'], { env: service() })).toMatchObject({
      code: 4,
      stdout: '',
      stderr: `mkt: unknown exchange NYS (404)\n${DID_YOU_MEAN_NYSE}`,
    });
  });

  it('mkt compare NYS CBOE compares CBOE, and warns of NYS once, with the did-you-mean', async () => {
    const run = await runInProcess(['compare', 'NYS', 'CBOE', '-f', 'csv', '--columns', 'exchange,error'], { env: service() });
    expect(run).toMatchObject({
      code: 0,
      stdout: 'exchange,error\r\nCBOE,\r\nNYS,unknown exchange (404)\r\n',
      stderr: 'warning: NYS: unknown exchange NYS (404); did you mean NYSE?\n',
    });
  });

  it('still warns when the service answers for an exchange the kept list lacks: the list may be stale', async () => {
    const run = await runInProcess(['fees', 'IEX', '-f', 'json'], { env: service() });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('warning: IEX is not among the 3 exchanges kept for profile "default" (`mkt exchanges --refresh` reads the list again)\n');
  });
});

describe('an interruption with --verbose', () => {
  // That SIGINT and SIGTERM, with --verbose, are one line and no stack trace, exit 130, is
  // interrupt-and-timeout.test's Ctrl-C, which sends them to a process during a request.
  it('leaves the stack trace to the unexpected, and only with --verbose', async () => {
    const failingStdout = () => new Writable({ write: (_chunk, _encoding, done) => done(new Error('the disk is on fire')) });
    const stderrOf = async (args: string[]) => {
      const deps = memoryDeps();
      expect(await run(args, { ...deps, stdout: failingStdout() })).toBe(1);
      return deps.stderr.text();
    };
    expect(await stderrOf(['filters', '-f', 'json'])).toBe('mkt: unexpected error: the disk is on fire\nRun again with --verbose for details.\n');
    expect(await stderrOf(['filters', '-f', 'json', '-v'])).toMatch(/^mkt: unexpected error: the disk is on fire\nError: the disk is on fire\n {4}at /);
  });
});

describe('a broken config file', () => {
  /** A config directory whose config.json has a comma missing after a value, on line 3. */
  function brokenConfig(): string {
    return tempConfigDir({ 'config.json': '{"profiles": {\n  "default": {\n    "format": "csv"\n    "timeout": 5\n  }\n}}\n' });
  }

  it('stops a command that reads it, naming the file and the JSON error with its line and column', async () => {
    const dir = brokenConfig();
    const run = await runInProcess(['results'], { env: { MKT_CONFIG_DIR: dir, MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key } });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: ${join(dir, 'config.json')} is not valid JSON: expected ',' or '}' after property value at line 4, column 5\n`
        + 'Fix the file by hand, or delete it and set the values again.\n',
    });
  });

  it('never quotes the file, which may hold a key', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"default": {"base_url": sk_live_0123456789}}}');
    const run = await runInProcess(['filters'], { env: { MKT_CONFIG_DIR: dir } });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).not.toContain('sk_live');
    expect(run.stderr.split('\n')[0]).toMatch(/^mkt: .*config\.json is not valid JSON: (an unexpected character|.* at line 1, column \d+)$/);
  });

  it('does not stop mkt --sandbox, which needs none of it: one warning line, and the answer', async () => {
    const dir = brokenConfig();
    writeFileSync(join(dir, 'credentials.json'), '{"profiles": ');
    const run = await runInProcess(['--sandbox', 'fees', 'NYSE', '-f', 'json'], { env: { MKT_CONFIG_DIR: dir } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ exchange: 'NYSE' });
    expect(run.stderr).toBe(
      `warning: ${join(dir, 'config.json')} is not valid JSON: expected ',' or '}' after property value at line 4, column 5; --sandbox goes on without it\n`,
    );
  });
});

describe('a base URL in capitals', () => {

  it('is the same service to the mirror: synced from HTTP://…, read offline and synced again from http://…', async () => {
    const mirror = join(tempDir('mkt-mirror-'), 'fees.duckdb');
    const key = sandbox.current.keys.api_key;
    const upper = sandbox.current.url.replace(/^http:/, 'HTTP:');
    const first = await runInProcess(['sync'], { env: { MKT_BASE_URL: `${upper}/`, MKT_API_KEY: key, MKT_MIRROR: mirror } });
    expect(first.code).toBe(0);
    const lower = { env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: key, MKT_MIRROR: mirror } };
    const offline = await runInProcess(['results', '--offline', '--limit', '2', '-f', 'ndjson'], lower);
    expect([offline.code, offline.stdout.split('\n').length - 1, offline.stderr]).toEqual([0, 2, '']);
    const again = await runInProcess(['sync', '-f', 'json'], lower);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ new_records: 0, full_walk: false });
  });
});
