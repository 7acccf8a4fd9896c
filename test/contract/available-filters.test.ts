import { describe, expect, it } from 'vitest';
import { AVAILABLE_FILTERS_PATH } from '../../src/api/paths.js';
import { ENUM_FILTER_VALUES } from '../../src/api/filters.js';
import { useSandbox } from '../helpers/sandbox.js';
import { control, getAllResults, getResults } from './http.js';

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

describe('available filters when versions are withdrawn', () => {
  const changing = useSandbox({ records: 400 });

  it('leave out an exchange once every version of it is withdrawn', async () => {
    const listed = await control<{ versions: { version_id: string; exchange_name: string; withdrawn: boolean }[] }>(changing.current, 'GET', 'versions');
    const iex = listed.body.versions.filter((version) => version.exchange_name === 'IEX' && !version.withdrawn);
    expect(iex.length).toBeGreaterThan(0);
    for (const version of iex) expect((await control(changing.current, 'DELETE', `versions/${version.version_id}`)).status).toBe(200);
    const { body } = await getResults<FiltersBody>(changing.current, { path: AVAILABLE_FILTERS_PATH });
    expect(body.data.exchange_names).not.toContain('IEX');
    expect(body.data.exchange_names).toContain('NYSE');
  });
});
