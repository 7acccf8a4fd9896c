import { describe, expect, it } from 'vitest';
import { blendedRate, ratesAtVolume } from '../../src/api/tiers.js';
import { sendJson, useRecordingServers } from '../helpers/recording-server.js';
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
  it('ranks the named venues by blended rate, lowest first', async () => {
    const run = await runInProcess(['compare', 'NYSE', 'CBOE', 'IEX', '--volume', '50M', '--make-share', '0.3', '-f', 'json'], { env: env() });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const expected = await Promise.all(['NYSE', 'CBOE', 'IEX'].map(async (exchange) => {
      const fees = await feesOf(exchange);
      const rates = ratesAtVolume(fees.fee_schedule, 50_000_000)!;
      return { exchange, tier: rates.tier, maker: rates.maker, taker: rates.taker, blended: blendedRate(rates, 0.3), effective_date: fees.effective_date };
    }));
    expect(JSON.parse(run.stdout)).toEqual(expected.sort((a, b) => a.blended - b.blended));
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
      const fees = () => server.requests.filter((request) => request.url.startsWith('/api/v1/exchanges/'));
      return { fees, env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k', MKT_CACHE_DIR: tempDir('mkt-cache-') } };
    }

    it('refuses, naming the requests it would cost, and asks for no fee schedule', async () => {
      const service = await serviceOf(3000);
      const run = await runInProcess(['compare', '--volume', '1M'], { env: service.env });
      expect(run).toMatchObject({
        code: 2,
        stdout: '',
        stderr: 'mkt: comparing every exchange `mkt exchanges` knows would send 3,000 requests, one per exchange\n'
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
