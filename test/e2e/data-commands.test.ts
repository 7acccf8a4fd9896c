import { describe, expect, it } from 'vitest';
import type { FeeScheduleResult, FeeScheduleResultsPage } from '../../src/api/types.js';
import { type InProcessRun, runInProcess } from '../helpers/run-in-process.js';
import { once } from '../helpers/once.js';
import { useSandbox } from '../helpers/sandbox.js';

// Three pages of 100, the last a part: --all walks across pages, and --limit 200 ends at a page's end with more to come.
const sandbox = useSandbox({ records: 250 });
const runs: InProcessRun[] = [];

async function mkt(args: string[], key: 'api_key' | 'scoped_api_key' | string = 'api_key'): Promise<InProcessRun> {
  const apiKey = key === 'api_key' || key === 'scoped_api_key' ? sandbox.current.keys[key] : key;
  const run = await runInProcess(args, { env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: apiKey } });
  runs.push(run);
  return run;
}

async function direct(path: string, headers: Record<string, string>): Promise<unknown> {
  const response = await fetch(`${sandbox.current.url}${path}`, { headers });
  expect(response.status).toBe(200);
  return response.json();
}

const bearer = () => ({ authorization: `Bearer ${sandbox.current.keys.api_key}` });
const resultsKey = () => ({ 'x-service-api-access-key': sandbox.current.keys.api_key });

describe('exchange commands print the service object unchanged as JSON', () => {
  it.each([
    [['fees', 'NYSE'], '/api/v1/exchanges/NYSE/fees'],
    [['rules', 'CBOE'], '/api/v1/exchanges/CBOE/rules'],
    [['order-types', 'IEX'], '/api/v1/exchanges/IEX/order-types'],
    [
      ['historical', 'NYSE', '--start-date', '2024-01-01', '--end-date', '2024-12-31'],
      '/api/v1/exchanges/NYSE/fees/historical?start_date=2024-01-01&end_date=2024-12-31',
    ],
  ])('mkt %j', async (args, path) => {
    const run = await mkt(args);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(await direct(path, bearer()));
  });
});

/** `mkt results --all`: the walk test reads it, and the --limit test compares with it. */
const walkAll = once(() => mkt(['results', '--all']));

describe('results', () => {
  it('prints one page by default', async () => {
    const run = await mkt(['results']);
    expect(run.code).toBe(0);
    const page = (await direct('/api/v1/fee-schedule-results?page_number=0', resultsKey())) as FeeScheduleResultsPage;
    expect(JSON.parse(run.stdout)).toEqual(page.data);
    expect(page.data).toHaveLength(20);
  });

  it('walks every page with --all, in the service order', async () => {
    const run = await walkAll();
    expect(run.code).toBe(0);
    const records = JSON.parse(run.stdout) as FeeScheduleResult[];
    expect(records).toHaveLength(250);
    expect(new Set(records.map((record) => record.id)).size).toBe(250);
    const first = (await direct('/api/v1/fee-schedule-results?page_size=100&page_number=0', resultsKey())) as FeeScheduleResultsPage;
    const last = (await direct('/api/v1/fee-schedule-results?page_size=100&page_number=2', resultsKey())) as FeeScheduleResultsPage;
    expect(records.slice(0, 100)).toEqual(first.data);
    expect(records.slice(200)).toEqual(last.data);
  });

  it('stops after --limit records', async () => {
    const run = await mkt(['results', '--limit', '150']);
    expect(run.code).toBe(0);
    const records = JSON.parse(run.stdout) as FeeScheduleResult[];
    const all = JSON.parse((await walkAll()).stdout) as FeeScheduleResult[];
    expect(records).toEqual(all.slice(0, 150));
  });

  it('stops at --limit with --all too, even at a page boundary', async () => {
    const run = await mkt(['results', '--all', '--limit', '200']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toHaveLength(200);
  });

  it('filters case-insensitively through the flags', async () => {
    const run = await mkt(['results', '--all', '--fee-type', 'OPTION', '--exchange-name', 'NYSE']);
    expect(run.code).toBe(0);
    const records = JSON.parse(run.stdout) as FeeScheduleResult[];
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record.exchange_name).toBe('NYSE');
      expect(record.fee_type.toLowerCase()).toBe('option');
    }
  });

  it('is a success with zero records', async () => {
    const run = await mkt(['results', '--exchange-name', 'NO_SUCH_VENUE']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual([]);
  });

  it('is limited to the scoped key’s exchanges', async () => {
    const run = await mkt(['results', '--all'], 'scoped_api_key');
    expect(run.code).toBe(0);
    const exchanges = new Set((JSON.parse(run.stdout) as FeeScheduleResult[]).map((record) => record.exchange_name));
    expect([...exchanges].sort()).toEqual([...sandbox.current.scopedExchanges].sort());
  });
});

describe('exit codes against the sandbox', () => {
  it('4 for an unknown exchange', async () => {
    const run = await mkt(['fees', 'NOPE']);
    expect(run).toMatchObject({ code: 4, stdout: '' });
    expect(run.stderr).toBe(
      'mkt: unknown exchange NOPE (404)\nCheck the identifier: `mkt exchanges` lists the exchanges your key reaches.\n',
    );
  });

  it('3 for an exchange the key is not licensed for', async () => {
    const unlicensed = ['NYSE', 'CBOE', 'IEX', 'NASDAQ'].find((exchange) => !sandbox.current.scopedExchanges.includes(exchange));
    const run = await mkt(['rules', unlicensed as string], 'scoped_api_key');
    expect(run).toMatchObject({ code: 3, stdout: '' });
    expect(run.stderr).toBe(
      `mkt: your key is not licensed for ${unlicensed} (403)\nAsk the data operator to add it to your licence, or use another profile with --profile.\n`,
    );
  });

  it.each([[['fees', 'NYSE']], [['results']]])('3 for a rejected key: mkt %j', async (args) => {
    const run = await mkt(args, 'not-a-real-key-9999');
    expect(run).toMatchObject({
      code: 3,
      stdout: '',
      stderr: 'mkt: the service rejected the API key (401)\nMKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.\n',
    });
  });

  it('never shows a key in any output', () => {
    expect(runs.length).toBeGreaterThan(10);
    const keys = [sandbox.current.keys.api_key, sandbox.current.keys.scoped_api_key, 'not-a-real-key-9999'];
    for (const run of runs) {
      for (const key of keys) {
        expect(run.stdout).not.toContain(key);
        expect(run.stderr).not.toContain(key);
      }
    }
  });
});

describe('--sandbox', () => {
  it('needs no set-up', async () => {
    const run = await runInProcess(['--sandbox', 'fees', 'NYSE', '-f', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ exchange: 'NYSE' });
  });
});
