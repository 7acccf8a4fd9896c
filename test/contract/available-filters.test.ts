import { describe, expect, it } from 'vitest';
import { AVAILABLE_FILTERS_PATH } from '../../src/api/paths.js';
import { ENUM_FILTER_VALUES } from '../../src/api/filters.js';
import { useSandbox } from '../helpers/sandbox.js';
import { control, getAllResults, getResults, listVersions } from './http.js';

// "Get Available Filters" as shared/cli-contract.md ("Discovery") gives it.
const sandbox = useSandbox({ records: 3000 });

interface FiltersBody {
  success: boolean;
  data: Record<string, string[]>;
}

const filters = (request: Parameters<typeof getResults>[1] = {}) => getResults<FiltersBody>(sandbox.current, { ...request, path: AVAILABLE_FILTERS_PATH });

describe('GET /api/v1/fee-schedule-results/filters', () => {
  it('lists the exchanges the key sees, and only filter values, each once', async () => {
    const { status, body } = await filters();
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    const { records } = await getAllResults(sandbox.current);
    const names = body.data.exchange_names ?? [];
    expect(new Set(names)).toEqual(new Set(records.map((record) => record.exchange_name)));
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(40);
    expect(body.data.supplier_names).toHaveLength(names.length);
    expect(body.data.fee_types).toEqual(['Equity', 'Option']);
    for (const value of body.data.fee_categories!) expect(ENUM_FILTER_VALUES.fee_category).toContain(value);
  });

  it('is scoped to the key, as the results are', async () => {
    const { body } = await filters({ key: sandbox.current.keys.scoped_api_key });
    expect(body.data.exchange_names).toEqual(['NYSE', 'NASDAQ', 'CBOE']);
  });

  it('is narrowed by repeated exchange_name; an unknown one adds nothing', async () => {
    const { body } = await filters({ query: { exchange_name: ['IEX', 'NOPE'] } });
    expect(body.data.exchange_names).toEqual(['IEX']);
    expect(body.data.supplier_names).toEqual(['Investors Exchange']);
    expect(body.data.fee_types).toEqual(['Equity']);
  });

  it('answers a missing key with the results endpoint\'s 401', async () => {
    const { status, body } = await filters({ key: null });
    expect(status).toBe(401);
    expect(body).toMatchObject({ success: false, status_code: 401 });
  });
});

// The exchange list of the service's 2026 reference (shared/service-2026.md).
describe('GET /api/v1/exchanges/', () => {
  interface ListBody {
    data: { name: string; display_name: string; fee_types: string[]; record_count: number }[];
    meta: { record_count: number };
  }
  const list = (request: Parameters<typeof getResults>[1] = {}) => getResults<ListBody>(sandbox.current, { ...request, path: '/api/v1/exchanges/' });

  it('gives each exchange the key sees its fee types, as the narrowed filters do, and its record count', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    const { records } = await getAllResults(sandbox.current);
    expect(body.data.map((entry) => entry.name)).toEqual((await filters()).body.data.exchange_names);
    expect(body.meta.record_count).toBe(body.data.length);
    for (const entry of body.data.filter((_, index) => index % 8 === 0)) {
      expect(entry.fee_types).toEqual((await filters({ query: { exchange_name: [entry.name] } })).body.data.fee_types);
      expect(entry.record_count).toBe(records.filter((record) => record.exchange_name === entry.name).length);
    }
    expect(body.data.find((entry) => entry.name === 'IEX')).toMatchObject({ display_name: 'Investors Exchange', fee_types: ['Equity'] });
  });

  it('is scoped to the key, and answers a missing key with the results endpoint\'s 401', async () => {
    const scoped = await list({ key: sandbox.current.keys.scoped_api_key });
    expect(scoped.body.data.map((entry) => entry.name)).toEqual(['NYSE', 'NASDAQ', 'CBOE']);
    const { status, body } = await list({ key: null });
    expect(status).toBe(401);
    expect(body).toMatchObject({ success: false, status_code: 401 });
  });
});

describe('available filters when versions are withdrawn', () => {
  const changing = useSandbox({ records: 400 });

  it('leave out an exchange once every version of it is withdrawn', async () => {
    const iex = (await listVersions(changing.current)).filter((version) => version.exchange_name === 'IEX' && !version.withdrawn);
    expect(iex.length).toBeGreaterThan(0);
    for (const version of iex) expect((await control(changing.current, 'DELETE', `versions/${version.version_id}`)).status).toBe(200);
    const { body } = await getResults<FiltersBody>(changing.current, { path: AVAILABLE_FILTERS_PATH });
    expect(body.data.exchange_names).not.toContain('IEX');
    expect(body.data.exchange_names).toContain('NYSE');
  });
});
