import { describe, expect, it } from 'vitest';
import type { InterfaceResultsEnvelope } from '../../src/api/types.js';
import { useSandbox } from '../helpers/sandbox.js';
import { getAllResults, getResults } from './http.js';

const RECORDS = 250;
const sandbox = useSandbox({ records: RECORDS });

function withoutQueryTime(page: InterfaceResultsEnvelope): Omit<InterfaceResultsEnvelope, 'query_time'> {
  const { query_time: _ignored, ...rest } = page;
  return rest;
}

describe('pagination', () => {
  it('has the documented envelope, with page_size 20 and page_number 0 by default', async () => {
    const { status, body } = await getResults(sandbox.current);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual([
      'success', 'message', 'data', 'total_records', 'page_size', 'total_pages', 'current_page', 'query_time', 'disable_jsonable_encoder',
    ]);
    expect(body).toMatchObject({ success: true, total_records: RECORDS, page_size: 20, total_pages: 13, current_page: 0, disable_jsonable_encoder: false });
    expect(typeof body.message).toBe('string');
    expect(typeof body.query_time).toBe('number');
    expect(body.data).toHaveLength(20);
  });

  it('computes total_pages as ceil(total_records / page_size) and echoes page_size and page_number', async () => {
    for (const [pageSize, pages] of [[1, 250], [7, 36], [50, 5], [100, 3]] as const) {
      const { body } = await getResults(sandbox.current, { query: { page_size: pageSize, page_number: 2 } });
      expect(body.total_pages).toBe(pages);
      expect(body.page_size).toBe(pageSize);
      expect(body.current_page).toBe(2);
    }
  });

  it('fills the last page with the remainder', async () => {
    const { body } = await getResults(sandbox.current, { query: { page_size: 100, page_number: 2 } });
    expect(body.data).toHaveLength(50);
  });

  it('answers a page past the end with no data and the right totals', async () => {
    const { status, body } = await getResults(sandbox.current, { query: { page_size: 100, page_number: 3 } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ data: [], total_records: RECORDS, total_pages: 3, current_page: 3, page_size: 100 });
    const far = await getResults(sandbox.current, { query: { page_number: 10 ** 12 } });
    expect(far.body).toMatchObject({ data: [], total_records: RECORDS, current_page: 10 ** 12 });
  });

  it('has zero pages when nothing matches', async () => {
    const { body } = await getResults(sandbox.current, { query: { exchange_name: 'NO_SUCH_VENUE' } });
    expect(body).toMatchObject({ data: [], total_records: 0, total_pages: 0, current_page: 0 });
  });

  it('walks every record exactly once from page 0 to total_pages - 1', async () => {
    const { records, pages } = await getAllResults(sandbox.current, { query: { page_size: 30 } });
    expect(pages).toHaveLength(9);
    expect(records).toHaveLength(RECORDS);
    expect(new Set(records.map((record) => record.id)).size).toBe(RECORDS);
  });

  it('serves the same page on the path with a trailing slash', async () => {
    const query = { page_size: 5, page_number: 1, fee_type: 'Equity' };
    const plain = await getResults(sandbox.current, { query });
    const slashed = await getResults(sandbox.current, { query, trailingSlash: true });
    expect(slashed.status).toBe(200);
    expect(withoutQueryTime(slashed.body)).toEqual(withoutQueryTime(plain.body));
  });

  it('uses the last value of a repeated single-valued parameter, as FastAPI does', async () => {
    const { body } = await getResults(sandbox.current, { query: { page_size: ['5', '3'] } });
    expect(body.page_size).toBe(3);
    expect(body.data).toHaveLength(3);
  });
});
