import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/core/version.js';
import { type InProcessOptions, runInProcess } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/run-mkt.js';
import { useRecordingServers } from '../helpers/recording-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const KEY = 'dry-run-secret-key-0042-qxz';
const recorder = useRecordingServers();

/** What every request carries before its own headers. */
const COMMON = `-H 'user-agent: mkt/${VERSION}' -H 'accept: application/json'`;
const RESULTS_KEY = '-H "x-service-api-access-key: $MKT_API_KEY"';
const EXCHANGES_KEY = `-H 'content-type: application/json' -H "authorization: Bearer $MKT_API_KEY"`;

/**
 * `mkt --dry-run args…` against a server that must get no request, with the key in MKT_API_KEY:
 * the run, and the base URL its lines name. The key's bytes appear in neither stream.
 */
async function dryRun(args: readonly string[], options: InProcessOptions = {}) {
  const server = await recorder((_request, response) => response.destroy());
  const run = await runInProcess(['--dry-run', ...args], { ...options, env: { MKT_API_KEY: KEY, MKT_BASE_URL: server.url, ...options.env } });
  expect(server.requests).toEqual([]);
  expect(`${run.stdout}${run.stderr}`).not.toContain(KEY);
  return { ...run, url: server.url };
}

describe('--dry-run prints the requests as curl lines, sends none, and exits 0', () => {
  it('one request: the exchange endpoint, its key as a bearer token', async () => {
    const { url, ...run } = await dryRun(['fees', 'NYSE']);
    expect(run).toMatchObject({ code: 0, stderr: '', stdout: `curl -sS -X GET ${url}/api/v1/exchanges/NYSE/fees ${COMMON} ${EXCHANGES_KEY}\n` });
  });

  it('one page of results, the query quoted for the shell, and no note when no page follows', async () => {
    const { url, ...run } = await dryRun(['results', '--exchange-name', 'NYSE', '--limit', '5']);
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `curl -sS -X GET '${url}/api/v1/fee-schedule-results?exchange_name=NYSE&page_size=5&page_number=0' ${COMMON} ${RESULTS_KEY}\n`,
    });
  });

  it('a walk: its first page, then a comment that the pages follow, by --all or as far as --limit needs', async () => {
    const all = await dryRun(['results', '--all']);
    expect(all.stdout).toBe(
      `curl -sS -X GET '${all.url}/api/v1/fee-schedule-results?page_size=100&page_number=0' ${COMMON} ${RESULTS_KEY}\n`
      + "# then the same request with page_number=1, 2, …, as many pages as its answer's total_pages says\n",
    );
    const limited = await dryRun(['results', '--limit', '250']);
    expect(limited.stdout.split('\n')[1]).toBe("# then the same request with page_number=1, 2, …, until 250 records (--limit) or its answer's total_pages");
    const version = await dryRun(['version', 'v-1']);
    expect(version.stdout).toBe(
      `curl -sS -X GET '${version.url}/api/v1/fee-schedule-results/versions/v-1?page_size=100&page_number=0' ${COMMON} ${RESULTS_KEY}\n`
      + "# then the same request with page_number=1, 2, …, as many pages as its answer's total_pages says\n",
    );
  });

  it('a request whose answer shapes the next: printed, and the next said in a comment', async () => {
    const spelt = await dryRun(['results', '--fee-type', 'option']);
    expect(spelt.stdout).toBe(
      `curl -sS -X GET ${spelt.url}/api/v1/fee-schedule-results/filters ${COMMON} ${RESULTS_KEY}\n`
      + '# then the request itself, its filter values spelt as this answer lists them\n',
    );
    const exchanges = await dryRun(['exchanges']);
    expect(exchanges.stdout).toBe(
      `curl -sS -X GET ${exchanges.url}/api/v1/exchanges/ ${COMMON} ${RESULTS_KEY}\n`
      + '# a service without this list (401, 403, 404 or 405) is asked GET /api/v1/fee-schedule-results/filters instead\n',
    );
  });

  it('compare: the exchange list, then every venue, known in advance, and a comment on what the list decides', async () => {
    const { url, ...run } = await dryRun(['compare', 'NYSE', 'CBOE', '--fee-type', 'equity']);
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout:
        `curl -sS -X GET ${url}/api/v1/exchanges/ ${COMMON} ${RESULTS_KEY}\n`
        + `curl -sS -X GET ${url}/api/v1/exchanges/NYSE/fees ${COMMON} ${EXCHANGES_KEY}\n`
        + `curl -sS -X GET ${url}/api/v1/exchanges/CBOE/fees ${COMMON} ${EXCHANGES_KEY}\n`
        + "# the venues' units come from the exchange list's answer (with --fee-type, only the venues of that unit are asked for their fees); a service without the list is asked each venue's filters\n",
    });
  });

  it('puts the key where exchanges_auth and results_auth say, always as "$MKT_API_KEY", and a key given as a filter value too', async () => {
    const config = { MKT_CONFIG_DIR: tempConfigDir() };
    for (const [name, value] of [['exchanges_auth', 'header:x-api-key'], ['results_auth', 'bearer']]) {
      expect((await runInProcess(['config', 'set', name as string, value as string], { env: config })).code).toBe(0);
    }
    const fees = await dryRun(['rules', 'NYSE'], { env: config });
    expect(fees.stdout).toBe(`curl -sS -X GET ${fees.url}/api/v1/exchanges/NYSE/rules ${COMMON} -H 'content-type: application/json' -H "x-api-key: $MKT_API_KEY"\n`);
    const results = await dryRun(['results', '--supplier-name', KEY, '--verbose'], { env: config });
    expect(results.stdout).toBe(
      `curl -sS -X GET '${results.url}/api/v1/fee-schedule-results?supplier_name='"$MKT_API_KEY"'&page_number=0' ${COMMON} -H "authorization: Bearer $MKT_API_KEY"\n`,
    );
  });

  it('a stored key is the variable as well, and its bytes appear nowhere', async () => {
    const config = { MKT_CONFIG_DIR: tempConfigDir(), MKT_API_KEY: undefined };
    const login = await runInProcess(['auth', 'login', '--no-verify'], { env: { ...config, MKT_BASE_URL: 'https://svc.example.com' }, input: `${KEY}\n` });
    expect(login.code).toBe(0);
    const run = await dryRun(['results', '--supplier-name', KEY, '--verbose'], { env: config });
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `curl -sS -X GET '${run.url}/api/v1/fee-schedule-results?supplier_name='"$MKT_API_KEY"'&page_number=0' ${COMMON} ${RESULTS_KEY}\n`,
    });
  });

  it('leaves a key too short to tell from its own words where it stands', async () => {
    const run = await dryRun(['results', '--exchange-name', 'NYSE'], { env: { MKT_API_KEY: 'mkt' } });
    expect(run.stdout).toBe(`curl -sS -X GET '${run.url}/api/v1/fee-schedule-results?exchange_name=NYSE&page_number=0' ${COMMON} ${RESULTS_KEY}\n`);
  });

  it('needs no key: a comment says to set one', async () => {
    const { url, ...run } = await dryRun(['order-types', 'NYSE'], { env: { MKT_API_KEY: undefined } });
    expect(run).toMatchObject({
      code: 0,
      stdout: '# no API key for profile "default": set MKT_API_KEY before running these\n'
        + `curl -sS -X GET ${url}/api/v1/exchanges/NYSE/order-types ${COMMON} -H 'content-type: application/json' -H "authorization: Bearer $MKT_API_KEY"\n`,
    });
  });

  it('with --sandbox, starts none and says that it would answer, at the port `mkt sandbox --port 8080` serves', async () => {
    const run = await runInProcess(['--dry-run', '--sandbox', '--sandbox-shape', '2026', 'historical', 'NYSE']);
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout:
        '# --sandbox: the in-process sandbox would answer these; to send them, serve one with `mkt sandbox --port 8080 --shape 2026` and set MKT_API_KEY to the demo key it prints\n'
        + `curl -sS -X GET http://127.0.0.1:8080/api/v1/exchanges/NYSE/fees/historical ${COMMON} -H 'content-type: application/json' -H "x-service-api-access-key: $MKT_API_KEY"\n`,
    });
  });

  it('writes no -o file', async () => {
    const dir = tempDir('mkt-dry-run-');
    const run = await dryRun(['results', '--all', '-o', join(dir, 'out.csv')]);
    expect(run.code).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('sync: the first request, before the mirror is opened: none is created, and one there is left byte for byte', async () => {
    const data = tempDir('mkt-data-');
    const created = await dryRun(['sync'], { env: { MKT_DATA_DIR: data } });
    expect(created.code).toBe(0);
    expect(created.stdout).toBe(
      `curl -sS -X GET '${created.url}/api/v1/fee-schedule-results?page_size=100&order_by=created_on&order_dir=desc&page_number=0' ${COMMON} ${RESULTS_KEY}\n`
      + "# then, as its answer and the mirror say, the pages the mirror lacks: the same request with page_number=1, 2, …, or every page of the filters' results\n",
    );
    expect(readdirSync(data)).toEqual([]);
    const mirror = join(tempDir('mkt-mirror-'), 'kept.duckdb');
    writeFileSync(mirror, 'not a database: opening it would fail');
    const kept = await dryRun(['sync', '--mirror', mirror, '--full-refresh']);
    expect(kept.code).toBe(0);
    expect(readFileSync(mirror, 'utf8')).toBe('not a database: opening it would fail');
    expect(existsSync(`${mirror}.wal`)).toBe(false);
  });
});

describe('--dry-run is refused where nothing would be sent, and bad flags fail first', () => {
  it.each([
    [['results', '--page-size', '0'], 'mkt: --page-size: "0" is not a whole number from 1 to 100\n'],
    [['fees', 'NYSE', '--bogus'], "mkt: unknown option '--bogus'\n"],
    [['sql', 'select 1'], 'mkt: --dry-run does not apply to mkt sql\n'],
    [['config', 'list'], 'mkt: --dry-run does not apply to mkt config list\n'],
    [['auth', 'login'], 'mkt: --dry-run does not apply to mkt auth login\n'],
    [['auth', 'status', '--check'], 'mkt: --dry-run does not apply to mkt auth status\n'],
    [['filters'], 'mkt: --dry-run does not apply to mkt filters\n'],
    [['diff', 'NYSE', 'Equity', '--offline'], 'mkt: --dry-run shows the requests to the service, and --offline sends none\n'],
    [['results', '--offline'], 'mkt: --dry-run shows the requests to the service, and --offline sends none\nDrop --offline to see what the service would be asked.\n'],
  ])('mkt --dry-run %j: exit 2, nothing on stdout', async (args, stderr) => {
    const run = await dryRun(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.startsWith(stderr)).toBe(true);
  });
});
