import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatLocalMicros, formatOffsetMicros } from '../../src/sandbox/time.js';
import { blendedRate, ratesAtVolume } from '../../src/api/tiers.js';
import { emptyResultsPage, sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 17, points 3 and 4: the rates at a volume, and venues side by side.
const sandbox = useSandbox({ records: 200 });
const env = (key: 'api_key' | 'scoped_api_key' = 'api_key') => ({
  MKT_BASE_URL: sandbox.current.url,
  MKT_API_KEY: sandbox.current.keys[key],
  MKT_CACHE_DIR: tempDir('mkt-cache-'),
});

async function feesOf(exchange: string) {
  const run = await runInProcess(['fees', exchange, '-f', 'json'], { env: env() });
  return JSON.parse(run.stdout) as { effective_date: string; fee_schedule: unknown };
}

describe('mkt fees --volume', () => {
  it('adds at_volume to the service\'s object: the tier with the highest threshold not above the volume', async () => {
    const plain = await feesOf('CBOE');
    const run = await runInProcess(['fees', 'CBOE', '--volume', '15M', '-f', 'json'], { env: env() });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const body = JSON.parse(run.stdout);
    expect(body).toEqual({ ...plain, at_volume: ratesAtVolume(plain.fee_schedule, 15_000_000) });
    expect(body.at_volume.tier).not.toBeNull();
  });

  it('shows, in the table, the tier and the rates at the volume', async () => {
    const rates = ratesAtVolume((await feesOf('CBOE')).fee_schedule, 15_000_000)!;
    const run = await runInProcess(['fees', 'CBOE', '--volume', '15M'], { env: { ...env(), NO_COLOR: '1' }, stdout: { isTTY: true, columns: 80 } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`│ At 15,000,000 a month │ ${rates.tier}: maker ${rates.maker}, taker ${rates.taker} │`);
  });

  it.each(['15X', '-1', '1.5'])('refuses --volume %j before anything is sent', async (volume) => {
    const run = await runInProcess(['fees', 'CBOE', '--volume', volume], { env: { ...env(), MKT_BASE_URL: 'http://127.0.0.1:1' } });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `mkt: --volume must be a whole monthly volume, not ${JSON.stringify(volume)}\nWrite it as 50000000, 5e7, 50M, 2.5B, 750K or 1,000,000.\n`,
    });
  });
});

describe('mkt compare', () => {
  // Issue 36, point 1: a venue is ranked only against venues of its unit.
  it('ranks each venue among the venues of its unit, and a venue of unknown unit apart, unranked', async () => {
    const named = ['NYSE', 'CBOE', 'IEX', 'EUREX', 'NASDAQ_PHLX', 'LSE'];
    const run = await runInProcess(['compare', ...named, '--volume', '50M', '--make-share', '0.3', '-f', 'json'], { env: env() });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    // The sandbox's venues: NYSE publishes equity and option schedules, so its one schedule could be either.
    const units: Record<string, string | null> = { IEX: 'per share', LSE: 'per share', CBOE: 'per contract', EUREX: 'per contract', NASDAQ_PHLX: 'per contract', NYSE: null };
    const rows = await Promise.all(named.map(async (exchange) => {
      const fees = await feesOf(exchange);
      const rates = ratesAtVolume(fees.fee_schedule, 50_000_000)!;
      const rated = { tier: rates.tier, maker: rates.maker, taker: rates.taker, blended: blendedRate(rates, 0.3), effective_date: fees.effective_date };
      return { exchange, unit: units[exchange], currency: null, rank: null as number | null, ...rated, error: null };
    }));
    const group = (unit: string | null) => rows.filter((row) => row.unit === unit).sort((a, b) => a.blended - b.blended)
      .map((row, index) => ({ ...row, rank: unit === null ? null : index + 1 }));
    expect(JSON.parse(run.stdout)).toEqual([...group('per share'), ...group('per contract'), ...group(null)]);
  });

  it('keeps one class with --fee-type, saying on stderr which venues it left out', async () => {
    const run = await runInProcess(['compare', 'NYSE', 'CBOE', 'IEX', 'EUREX', '--fee-type', 'option', '-f', 'csv', '--columns', 'exchange,unit,currency,rank'], { env: env() });
    const blended = async (exchange: string) => blendedRate(ratesAtVolume((await feesOf(exchange)).fee_schedule, 0)!, 0.5);
    const [first, second] = (await blended('CBOE')) < (await blended('EUREX')) ? ['CBOE', 'EUREX'] : ['EUREX', 'CBOE'];
    expect(run).toMatchObject({
      code: 0,
      stdout: `exchange,unit,currency,rank\r\n${first},per contract,,1\r\n${second},per contract,,2\r\n`,
      stderr: '--fee-type Option left out 2 venues not known to be priced per contract: NYSE, IEX\n',
    });
  });

  it('fails, exit 1, when --fee-type leaves no venue, in one message', async () => {
    const run = await runInProcess(['compare', 'NYSE', 'CBOE', '--fee-type', 'Equity'], { env: env() });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'mkt: no venue is known to be priced per share: --fee-type Equity left out NYSE, CBOE\n'
        + 'Drop --fee-type to see every venue, its unit unknown or not.\n',
    });
  });

  it('gives a venue it cannot compare a row with its error and a warning, and exits 0', async () => {
    const run = await runInProcess(['compare', 'NYSE', 'IEX', 'NOPE', '-f', 'ndjson', '--columns', 'exchange,error'], { env: env('scoped_api_key') });
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual([
      { exchange: 'NYSE', error: null },
      { exchange: 'IEX', error: 'not licensed (403)' },
      { exchange: 'NOPE', error: 'unknown exchange (404)' },
    ]);
    expect(run.stderr).toBe('warning: IEX: your key is not licensed for IEX (403)\nwarning: NOPE: unknown exchange NOPE (404)\n');
  });

  it('fails when no venue could be compared', async () => {
    const run = await runInProcess(['compare', 'IEX'], { env: env('scoped_api_key') });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('your key is not licensed for IEX (403)');
  });

  it('compares every exchange the key reaches when none is named', async () => {
    const run = await runInProcess(['compare', '-f', 'csv', '--columns', 'exchange'], { env: env('scoped_api_key') });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\r\n').slice(1, -1).sort()).toEqual(['CBOE', 'NASDAQ', 'NYSE']);
  });

  it.each([['--make-share', '1.5'], ['--make-share', 'half'], ['--volume', 'lots']])('refuses %s %s', async (flag, value) => {
    const run = await runInProcess(['compare', 'NYSE', flag, value], { env: { ...env(), MKT_BASE_URL: 'http://127.0.0.1:1' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^mkt: ${flag} must be`));
  });

  // Issue 35, point 8: a request per venue is a cost the user chooses above 50 venues.
  describe('with no exchange named, above 50 venues', () => {
    const servers = useRecordingServers();
    /** A service that knows `count` exchanges, V0 to V(count - 1), each with a fee schedule. */
    async function serviceOf(count: number) {
      const server = await servers((request, response) => {
        if (request.url.startsWith('/api/v1/fee-schedule-results/filters')) {
          sendJson(response, 200, { data: { exchange_names: Array.from({ length: count }, (_, n) => `V${n}`) } });
          return;
        }
        const exchange = /^\/api\/v1\/exchanges\/([^/]+)\/fees/.exec(request.url)?.[1];
        sendJson(response, 200, { exchange, effective_date: '2025-01-01', fee_schedule: { maker_fee: 0.001, taker_fee: 0.003 } });
      });
      const fees = () => server.requests.filter((request) => request.url.endsWith('/fees'));
      return { fees, env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k', MKT_CACHE_DIR: tempDir('mkt-cache-') } };
    }

    it('refuses, naming the requests it would cost, and asks for no fee schedule', async () => {
      const service = await serviceOf(3000);
      const run = await runInProcess(['compare', '--volume', '1M'], { env: service.env });
      expect(run).toMatchObject({
        code: 2,
        stdout: '',
        stderr: 'mkt: comparing every exchange `mkt exchanges` knows would ask for 3,000 fee schedules, a request each\n'
          + 'Name the exchanges to compare, or add --all-exchanges to compare all 3,000.\n',
      });
      expect(service.fees()).toHaveLength(0);
    });

    it('compares them all with --all-exchanges, and 50 without it', async () => {
      const many = await serviceOf(51);
      const all = await runInProcess(['compare', '--all-exchanges', '-f', 'csv', '--columns', 'exchange'], { env: many.env });
      expect(all).toMatchObject({ code: 0, stderr: '' });
      expect(all.stdout.split('\r\n').slice(1, -1)).toHaveLength(51);
      expect(many.fees()).toHaveLength(51);
      const fifty = await serviceOf(50);
      expect((await runInProcess(['compare', '-f', 'csv'], { env: fifty.env })).code).toBe(0);
      expect(fifty.fees()).toHaveLength(50);
    });

    it('refuses exchanges named beside --all-exchanges', async () => {
      const run = await runInProcess(['compare', 'NYSE', '--all-exchanges'], { env: { ...env(), MKT_BASE_URL: 'http://127.0.0.1:1' } });
      expect(run).toMatchObject({ code: 2, stdout: '', stderr: 'mkt: give exchanges or --all-exchanges, not both\n--all-exchanges compares every exchange `mkt exchanges` knows.\n' });
    });
  });
});

// Issue 36, point 1: what each venue's numbers are per, from the fee types the service gives for it.
describe('mkt compare: units', () => {
  const servers = useRecordingServers();
  interface FakeVenue {
    /** What the service gives as the venue's fee types; absent: the venue is in neither list nor filters. */
    feeTypes?: unknown;
    maker: number;
    taker: number;
  }
  /** A service with these venues' schedules, and their fee types in its exchange list, its filters, or neither. */
  async function serviceOf(venues: Record<string, FakeVenue>, discovery: 'list' | 'filters' | 'neither') {
    const server = await servers((request, response) => {
      const url = new URL(request.url, 'http://127.0.0.1');
      const known = Object.entries(venues).filter(([, venue]) => venue.feeTypes !== undefined);
      if (url.pathname === '/api/v1/exchanges/' && discovery === 'list') {
        sendJson(response, 200, { data: known.map(([name, venue]) => ({ name, fee_types: venue.feeTypes })), meta: { record_count: known.length } });
        return;
      }
      // An older service may refuse a path it does not have for the header it does not expect there.
      if (url.pathname === '/api/v1/exchanges/' && discovery === 'filters') {
        sendJson(response, 401, { detail: 'Not authenticated' });
        return;
      }
      // Every venue when not narrowed, for `mkt exchanges`; narrowed to one, its fee types.
      if (url.pathname === '/api/v1/fee-schedule-results/filters' && !url.searchParams.has('exchange_name')) {
        sendJson(response, 200, { data: { exchange_names: Object.keys(venues) } });
        return;
      }
      if (url.pathname === '/api/v1/fee-schedule-results/filters' && discovery === 'filters') {
        const venue = venues[url.searchParams.get('exchange_name') ?? ''];
        sendJson(response, 200, { data: { exchange_names: [], fee_types: venue?.feeTypes ?? [] } });
        return;
      }
      const exchange = /^\/api\/v1\/exchanges\/([^/]+)\/fees$/.exec(url.pathname)?.[1];
      const venue = venues[exchange ?? ''];
      if (exchange === undefined || venue === undefined) {
        sendJson(response, 404, { detail: exchange === undefined ? 'Not Found' : `Exchange '${exchange}' not found.` });
        return;
      }
      sendJson(response, 200, { exchange, effective_date: '2026-01-02', fee_schedule: { maker_fee: venue.maker, taker_fee: venue.taker } });
    });
    const paths = () => server.requests.map((request) => request.url);
    return { paths, env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k', MKT_CACHE_DIR: tempDir('mkt-cache-') } };
  }
  const VENUES: Record<string, FakeVenue> = {
    SHARES_A: { feeTypes: ['Equity'], maker: -0.002, taker: 0.003 },
    SHARES_B: { feeTypes: ['EQUITY'], maker: -0.001, taker: 0.003 },
    SHARES_C: { feeTypes: ['equity'], maker: -0.002, taker: 0.003 },
    CONTRACTS: { feeTypes: ['OPTION', 'Option'], maker: -0.4, taker: 0.5 },
    BOTH: { feeTypes: ['Equity', 'Option'], maker: -0.5, taker: 0.1 },
    FUTURES: { feeTypes: ['Future'], maker: -0.9, taker: 0.1 },
  };

  it('shows a table per group at a terminal, under its heading; equal rates share a rank', async () => {
    const service = await serviceOf(VENUES, 'list');
    const run = await runInProcess(['compare', ...Object.keys(VENUES), 'GONE'], { env: { ...service.env, NO_COLOR: '1' }, stdout: { isTTY: true, columns: 80 } });
    expect(run).toMatchObject({ code: 0, stderr: 'warning: GONE: unknown exchange GONE (404)\n' });
    expect(run.stdout).toBe([
      'Per share · currency unknown',
      '┌───┬──────────┬──────┬────────┬───────┬─────────┬────────────┐',
      '│ # │ Exchange │ Tier │  Maker │ Taker │ Blended │ Effective  │',
      '├───┼──────────┼──────┼────────┼───────┼─────────┼────────────┤',
      '│ 1 │ SHARES_A │      │ -0.002 │ 0.003 │  0.0005 │ 2026-01-02 │',
      '│ 1 │ SHARES_C │      │ -0.002 │ 0.003 │  0.0005 │ 2026-01-02 │',
      '│ 3 │ SHARES_B │      │ -0.001 │ 0.003 │   0.001 │ 2026-01-02 │',
      '└───┴──────────┴──────┴────────┴───────┴─────────┴────────────┘',
      '',
      'Per contract · currency unknown',
      '┌───┬───────────┬──────┬───────┬───────┬─────────┬────────────┐',
      '│ # │ Exchange  │ Tier │ Maker │ Taker │ Blended │ Effective  │',
      '├───┼───────────┼──────┼───────┼───────┼─────────┼────────────┤',
      '│ 1 │ CONTRACTS │      │  -0.4 │   0.5 │    0.05 │ 2026-01-02 │',
      '└───┴───────────┴──────┴───────┴───────┴─────────┴────────────┘',
      '',
      'Unit unknown · not ranked',
      '┌──────────┬──────┬───────┬───────┬─────────┬────────────┬─────────────────────┐',
      '│ Exchange │ Tier │ Maker │ Taker │ Blended │ Effective  │ Error               │',
      '├──────────┼──────┼───────┼───────┼─────────┼────────────┼─────────────────────┤',
      '│ FUTURES  │      │  -0.9 │   0.1 │    -0.4 │ 2026-01-02 │                     │',
      '│ BOTH     │      │  -0.5 │   0.1 │    -0.2 │ 2026-01-02 │                     │',
      '│ GONE     │      │       │       │         │            │ unknown exchange …  │',
      '└──────────┴──────┴───────┴───────┴─────────┴────────────┴─────────────────────┘',
      '',
    ].join('\n'));
    // One request told every venue's unit.
    expect(service.paths().filter((path) => !path.endsWith('/fees'))).toEqual(['/api/v1/exchanges/']);
  });

  it('asks a service without the exchange list (401 there) for each venue\'s filters, and reads the fee types in any spelling', async () => {
    const service = await serviceOf(VENUES, 'filters');
    const run = await runInProcess(['compare', ...Object.keys(VENUES), '-f', 'ndjson', '--columns', 'exchange,unit,rank'], { env: service.env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe([
      { exchange: 'SHARES_A', unit: 'per share', rank: 1 },
      { exchange: 'SHARES_C', unit: 'per share', rank: 1 },
      { exchange: 'SHARES_B', unit: 'per share', rank: 3 },
      { exchange: 'CONTRACTS', unit: 'per contract', rank: 1 },
      { exchange: 'FUTURES', unit: null, rank: null },
      { exchange: 'BOTH', unit: null, rank: null },
    ].map((row) => `${JSON.stringify(row)}\n`).join(''));
    const filters = service.paths().filter((path) => path.startsWith('/api/v1/fee-schedule-results/filters')).sort();
    expect(filters).toEqual(Object.keys(VENUES).map((name) => `/api/v1/fee-schedule-results/filters?exchange_name=${name}`).sort());
  });

  it('gives a table written to a file each row\'s unit and currency, since it has no headings', async () => {
    const service = await serviceOf(VENUES, 'list');
    const file = join(tempDir('mkt-out-'), 'venues.txt');
    const run = await runInProcess(['compare', 'SHARES_A', 'CONTRACTS', 'BOTH', '-f', 'table', '-o', file], { env: service.env });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(file, 'utf8').split('\n').slice(0, 7)).toEqual([
      '┌───┬───────────┬──────────────┬──────────┬──────┬────────┬───────┬─────────┬────────────┬───────┐',
      '│ # │ Exchange  │ Unit         │ Currency │ Tier │  Maker │ Taker │ Blended │ Effective  │ Error │',
      '├───┼───────────┼──────────────┼──────────┼──────┼────────┼───────┼─────────┼────────────┼───────┤',
      '│ 1 │ SHARES_A  │ per share    │          │      │ -0.002 │ 0.003 │  0.0005 │ 2026-01-02 │       │',
      '│ 1 │ CONTRACTS │ per contract │          │      │   -0.4 │   0.5 │    0.05 │ 2026-01-02 │       │',
      '│   │ BOTH      │              │          │      │   -0.5 │   0.1 │    -0.2 │ 2026-01-02 │       │',
      '└───┴───────────┴──────────────┴──────────┴──────┴────────┴───────┴─────────┴────────────┴───────┘',
    ]);
  });

  it('exits 3 on a rejected key, whichever request meets it first', async () => {
    const run = await runInProcess(['compare', 'NYSE', 'CBOE'], { env: { ...env(), MKT_API_KEY: 'bogus-key-1234' } });
    expect(run).toMatchObject({
      code: 3,
      stdout: '',
      stderr: 'mkt: the service rejected the API key (401)\nMKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.\n',
    });
  });

  it('ranks nothing when the service tells no venue\'s fee types', async () => {
    const service = await serviceOf({ A: { maker: -0.002, taker: 0.003 }, B: { maker: -0.4, taker: 0.5 } }, 'neither');
    const run = await runInProcess(['compare', 'A', 'B', '-f', 'ndjson', '--columns', 'exchange,unit,currency,rank'], { env: service.env });
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout: '{"exchange":"A","unit":null,"currency":null,"rank":null}\n{"exchange":"B","unit":null,"currency":null,"rank":null}\n',
    });
  });

  it('with --fee-type and no venue named, says how many venues it left out', async () => {
    const service = await serviceOf(VENUES, 'list');
    const run = await runInProcess(['compare', '--fee-type', 'Equity', '-f', 'csv', '--columns', 'exchange,rank'], { env: service.env });
    expect(run).toMatchObject({
      code: 0,
      stdout: 'exchange,rank\r\nSHARES_A,1\r\nSHARES_C,1\r\nSHARES_B,3\r\n',
      stderr: '--fee-type Equity left out 3 venues not known to be priced per share\n',
    });
  });

  it('with --fee-type, asks no fee schedule of a venue it leaves out', async () => {
    const service = await serviceOf(VENUES, 'list');
    const run = await runInProcess(['compare', ...Object.keys(VENUES), '--fee-type', 'Option', '-f', 'json', '--quiet'], { env: service.env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual([
      { exchange: 'CONTRACTS', unit: 'per contract', currency: null, rank: 1, tier: null, maker: -0.4, taker: 0.5, blended: 0.05, effective_date: '2026-01-02', error: null },
    ]);
    expect(service.paths().filter((path) => path.endsWith('/fees'))).toEqual(['/api/v1/exchanges/CONTRACTS/fees']);
  });

  it('takes the fee types and the currency from the mirror of a venue it holds whole, asking the service for neither', async () => {
    // Each venue's records: its fee type and amounts. A currency is the one its amounts name; % is none.
    const held: Record<string, [string, string][]> = {
      EUR_OPTIONS: [['OPTION', '€0.25'], ['Option', 'EUR 0.10 per contract']],
      USD_SHARES: [['Equity', '$0.0030'], ['Equity', '0.30%'], ['Equity', '($0.0020)']],
      MIXED: [['Equity', '$0.0030'], ['Equity', '£0.25 per contract']],
      BOTH: [['Equity', '$0.0030'], ['Option', '$0.25']],
    };
    const start = Date.UTC(2025, 0, 1) * 1000;
    const records = Object.entries(held).flatMap(([exchange, items], v) => items.map(([feeType, amount], i) => {
      const n = v * 10 + i;
      return {
        id: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
        exchange_name: exchange,
        fee_type: feeType,
        fee_amount: amount,
        version_id: `00000000-0000-4000-9000-${(v * 2 + (feeType.toLowerCase() === 'option' ? 1 : 0)).toString(16).padStart(12, '0')}`,
        scraped_time: formatOffsetMicros(start + n * 1_000_000),
        created_on: formatLocalMicros(start + n * 1_000_000),
      };
    }));
    const server = await servers((request, response) => {
      const url = new URL(request.url, 'http://127.0.0.1');
      if (url.pathname === '/api/v1/fee-schedule-results') {
        const size = Number(url.searchParams.get('page_size') ?? 20);
        const page = Number(url.searchParams.get('page_number') ?? 0);
        const ordered = url.searchParams.get('order_dir') === 'asc' ? records : [...records].reverse();
        sendJson(response, 200, { ...emptyResultsPage(size, page), data: ordered.slice(page * size, (page + 1) * size), total_records: records.length, total_pages: Math.ceil(records.length / size) });
        return;
      }
      const exchange = /^\/api\/v1\/exchanges\/([^/]+)\/fees$/.exec(url.pathname)?.[1];
      if (exchange === undefined) {
        sendJson(response, 404, { detail: 'Not Found' });
        return;
      }
      sendJson(response, 200, { exchange, effective_date: '2026-01-02', fee_schedule: { maker_fee: -0.002, taker_fee: 0.003 } });
    });
    const env = { MKT_BASE_URL: server.url, MKT_API_KEY: 'k', MKT_CACHE_DIR: tempDir('mkt-cache-'), MKT_DATA_DIR: tempDir('mkt-data-') };
    expect((await runInProcess(['sync'], { env })).code).toBe(0);
    server.requests.splice(0);
    const run = await runInProcess(['compare', ...Object.keys(held), '-f', 'ndjson', '--columns', 'exchange,unit,currency,rank'], { env });
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout: [
        { exchange: 'USD_SHARES', unit: 'per share', currency: 'USD', rank: 1 },
        { exchange: 'MIXED', unit: 'per share', currency: null, rank: 1 },
        { exchange: 'EUR_OPTIONS', unit: 'per contract', currency: 'EUR', rank: 1 },
        { exchange: 'BOTH', unit: null, currency: 'USD', rank: null },
      ].map((row) => `${JSON.stringify(row)}\n`).join(''),
    });
    expect(server.requests.map((request) => request.url).sort()).toEqual(Object.keys(held).map((exchange) => `/api/v1/exchanges/${exchange}/fees`).sort());
  });
});
