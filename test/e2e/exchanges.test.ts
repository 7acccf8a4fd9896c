import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeExchangeList } from '../../src/config/exchange-cache.js';
import { VENUES } from '../../src/sandbox/venues.js';
import { closedPort, emptyResultsPage, sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 15, points 6 and 7: finding the exchanges, and using the list where one is typed.
const sandbox = useSandbox({ records: 500 });
const startServer = useRecordingServers();
const KEY = 'exchanges-test-key-0001';

describe('mkt exchanges', () => {
  it('lists what the sandbox key reaches, and keeps nothing of the sandbox', async () => {
    const cacheDir = tempDir('mkt-cache-');
    const run = await runInProcess(['--sandbox', 'exchanges', '-f', 'json'], { env: { MKT_CACHE_DIR: cacheDir } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    // From the sandbox's exchange list (the 2026 reference's): each venue's name, fee types and records.
    const listed = JSON.parse(run.stdout) as { exchange: string; name: string; fee_types: string[]; records: number }[];
    expect(listed.map(({ exchange, name }) => ({ exchange, name }))).toEqual(VENUES.map((venue) => ({ exchange: venue.id, name: venue.name })));
    for (const venue of listed) expect(Object.keys(venue)).toEqual(['exchange', 'name', 'fee_types', 'records']);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('asks the service once, keeps the list per profile, and asks again with --refresh', async () => {
    const cacheDir = tempDir('mkt-cache-');
    const service = { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.scoped_api_key, MKT_CACHE_DIR: cacheDir };
    const first = await runInProcess(['exchanges', '-f', 'csv'], { env: service });
    expect(first).toMatchObject({
      code: 0,
      stdout: 'exchange,name,fee_types,records\r\nNYSE,New York Stock Exchange,"Equity, Option",10\r\n'
        + 'NASDAQ,The Nasdaq Stock Market,"Equity, Option",9\r\nCBOE,Cboe Options Exchange,Option,11\r\n',
      stderr: '',
    });
    expect(existsSync(`${cacheDir}/exchanges/default.json`)).toBe(true);

    // Kept: no service needed at all.
    const kept = await runInProcess(['exchanges', '-f', 'csv'], { env: { ...service, MKT_BASE_URL: await closedPort() } });
    expect(kept).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    // Where the list came from is said to a person at a terminal, not to cron's mail.
    const atTerminal = await runInProcess(['exchanges', '-f', 'csv'], { env: { ...service, MKT_BASE_URL: await closedPort() }, stderr: { isTTY: true, columns: 100 } });
    expect(atTerminal).toMatchObject({ code: 0, stdout: first.stdout });
    expect(atTerminal.stderr).toMatch(/^The list kept on \d{4}-\d{2}-\d{2}; --refresh asks the service again\.\n$/);

    const refreshed = await runInProcess(['exchanges', '--refresh', '-f', 'csv', '--retries', '0'], { env: { ...service, MKT_BASE_URL: await closedPort() } });
    expect(refreshed.code).toBe(1);
    expect(refreshed.stderr).toMatch(/connection refused/);
  });

  it('says how to get a list when the service answers neither the exchange list nor Get Available Filters, exit 1', async () => {
    const server = await startServer((_request, response) => sendJson(response, 404, { detail: 'Not Found' }));
    const run = await runInProcess(['exchanges'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY, MKT_CACHE_DIR: tempDir('mkt-cache-') } });
    const host = new URL(server.url).host;
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        `mkt: ${host} does not list its exchanges (GET /api/v1/exchanges/, nor Get Available Filters, GET /api/v1/fee-schedule-results/filters)\n`
        + 'The exchanges of your results: mkt results --all --columns exchange_name -f ndjson | jq -r .exchange_name | sort -u\n',
    });
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/exchanges/', '/api/v1/fee-schedule-results/filters']);
  });

  it('shows names and counts where the service gives them, and drops identifiers that are not plain tokens', async () => {
    const server = await startServer((_request, response) =>
      sendJson(response, 200, {
        data: { exchange_names: [{ exchange_name: 'NYSE', name: 'New York Stock Exchange', total_records: 1200 }, '$(touch /tmp/x)', 'IEX', 'IEX', 7] },
      }),
    );
    const run = await runInProcess(['exchanges', '-f', 'csv'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY, MKT_CACHE_DIR: tempDir('mkt-cache-') } });
    expect(run).toMatchObject({
      code: 0,
      stdout: 'exchange,name,records\r\nNYSE,New York Stock Exchange,1200\r\nIEX,,\r\n',
      stderr: 'warning: left out 2 exchange identifiers that are not plain letters, digits, ".", "_" or "-"\n',
    });
  });
});

describe('mkt exchanges from the 2026 exchange list (issue 38, point 4)', () => {
  const LIST = [
    { name: 'nyse', display_name: 'New York Stock Exchange', fee_types: ['equity', 'option'], record_count: 1200 },
    { name: 'nasdaq_phlx', display_name: 'Nasdaq PHLX', fee_types: ['option'], record_count: 87 },
    { name: 'fee_cboe_us_bzx_options', display_name: 'Cboe BZX Options Exchange', fee_types: ['option'], record_count: 4 },
  ];
  const listService = () =>
    startServer((request, response) =>
      request.url === '/api/v1/exchanges/' ? sendJson(response, 200, { data: LIST, meta: { record_count: 3, query_time_ms: 1 } }) : sendJson(response, 404, { detail: 'Not Found' }));
  const env = (url: string) => ({ MKT_BASE_URL: url, MKT_API_KEY: KEY, MKT_CACHE_DIR: tempDir('mkt-cache-') });

  it('lists identifiers, display names, fee types and counts, asking nothing else', async () => {
    const server = await listService();
    const run = await runInProcess(['exchanges', '-f', 'json'], { env: env(server.url) });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual(LIST.map((entry) => ({ exchange: entry.name, name: entry.display_name, fee_types: entry.fee_types, records: entry.record_count })));
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/exchanges/']);
    expect(server.requests[0]?.headers['x-service-api-access-key']).toBe(KEY);
  });

  it('keeps the fee types with the list, and writes them as words in CSV', async () => {
    const server = await listService();
    const service = env(server.url);
    const first = await runInProcess(['exchanges', '-f', 'csv'], { env: service });
    const csv = 'exchange,name,fee_types,records\r\nnyse,New York Stock Exchange,"equity, option",1200\r\n'
      + 'nasdaq_phlx,Nasdaq PHLX,option,87\r\nfee_cboe_us_bzx_options,Cboe BZX Options Exchange,option,4\r\n';
    expect(first).toMatchObject({ code: 0, stdout: csv, stderr: '' });
    const kept = await runInProcess(['exchanges', '-f', 'csv', '-q'], { env: { ...service, MKT_BASE_URL: await closedPort() } });
    expect(kept).toMatchObject({ code: 0, stdout: csv });
  });

  it('fits a table at 80 and at 100 columns', async () => {
    const server = await listService();
    const at = async (columns: number) => (await runInProcess(['exchanges', '--no-color'], { env: env(server.url), stdout: { isTTY: true, columns } })).stdout;
    const table = (cboe: string[]) => [
      '┌─────────────────────────┬─────────────────────────┬────────────────┬─────────┐',
      '│ Exchange                │ Name                    │ Fee types      │ Records │',
      '├─────────────────────────┼─────────────────────────┼────────────────┼─────────┤',
      '│ nyse                    │ New York Stock Exchange │ equity, option │    1200 │',
      '│ nasdaq_phlx             │ Nasdaq PHLX             │ option         │      87 │',
      ...cboe,
      '└─────────────────────────┴─────────────────────────┴────────────────┴─────────┘',
      '',
    ].join('\n');
    // At 80 columns the longest name wraps at a space rather than lose its end.
    expect(await at(80)).toBe(table([
      '│ fee_cboe_us_bzx_options │ Cboe BZX Options        │ option         │       4 │',
      '│                         │ Exchange                │                │         │',
    ]));
    expect(await at(100)).toBe([
      '┌─────────────────────────┬───────────────────────────┬────────────────┬─────────┐',
      '│ Exchange                │ Name                      │ Fee types      │ Records │',
      '├─────────────────────────┼───────────────────────────┼────────────────┼─────────┤',
      '│ nyse                    │ New York Stock Exchange   │ equity, option │    1200 │',
      '│ nasdaq_phlx             │ Nasdaq PHLX               │ option         │      87 │',
      '│ fee_cboe_us_bzx_options │ Cboe BZX Options Exchange │ option         │       4 │',
      '└─────────────────────────┴───────────────────────────┴────────────────┴─────────┘',
      '',
    ].join('\n'));
  });
});

describe('a typed exchange the kept list does not hold (point 7)', () => {
  function keptList(): string {
    const cacheDir = tempDir('mkt-cache-');
    writeExchangeList(cacheDir, 'default', {
      source: 'service',
      fetchedAt: '2026-11-01T00:00:00.000Z',
      exchanges: ['NYSE', 'NASDAQ', 'CBOE'].map((id) => ({ id, name: null, records: null })),
    });
    return cacheDir;
  }

  it('gets a did-you-mean warning, and the request is still sent', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, { exchange: 'NYSEE' }));
    const run = await runInProcess(['fees', 'NYSEE', '-f', 'json'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY, MKT_CACHE_DIR: keptList() } });
    expect(run).toMatchObject({
      code: 0,
      stderr: 'warning: NYSEE is not among the 3 exchanges kept for profile "default"; did you mean NYSE? (`mkt exchanges --refresh` reads the list again)\n',
    });
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/exchanges/NYSEE/fees']);
  });

  it('applies to --exchange-name too, value by value', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, emptyResultsPage()));
    const run = await runInProcess(['results', '--exchange-name', 'nasdaq,CBOE', '-f', 'json'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY, MKT_CACHE_DIR: keptList() } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('warning: nasdaq is not among the 3 exchanges kept for profile "default"; did you mean NASDAQ? (`mkt exchanges --refresh` reads the list again)\n');
    expect(server.requests).toHaveLength(1);
  });

  it('says nothing without a kept list', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, { exchange: 'NYSEE' }));
    const run = await runInProcess(['fees', 'NYSEE', '-f', 'json'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY, MKT_CACHE_DIR: tempDir('mkt-cache-') } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
  });
});
