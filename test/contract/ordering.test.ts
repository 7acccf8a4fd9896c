import { describe, expect, it } from 'vitest';
import { ORDER_BY_VALUES, ORDER_DIR_VALUES } from '../../src/api/filters.js';
import type { FeeScheduleResult } from '../../src/api/types.js';
import { useSandbox } from '../helpers/sandbox.js';
import { getAllResults, getResults } from './http.js';

const sandbox = useSandbox({ records: 700 });

/** The sort key of each order_by; ties are broken by created_on in the same direction. */
const SORT_KEY: Record<(typeof ORDER_BY_VALUES)[number], (record: FeeScheduleResult) => string> = {
  created_on: (record) => record.created_on,
  scraped_time: (record) => record.scraped_time,
  // Records carry no supplier name: the sandbox orders by the exchange identifier they do carry.
  supplier_name: (record) => record.exchange_name,
  fee_type: (record) => record.fee_type,
  fee_category: (record) => record.fee_category,
};

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

describe('ordering', () => {
  for (const orderBy of ORDER_BY_VALUES) {
    for (const orderDir of ORDER_DIR_VALUES) {
      it(`order_by=${orderBy}&order_dir=${orderDir} sorts every page, and pages never overlap`, async () => {
        // An odd page size so that page boundaries fall inside runs of equal keys.
        const { records, pages } = await getAllResults(sandbox.current, { query: { order_by: orderBy, order_dir: orderDir, page_size: 37 } });
        expect(records.length).toBe(pages[0]!.total_records);
        expect(new Set(records.map((record) => record.id)).size).toBe(records.length);
        const sign = orderDir === 'asc' ? 1 : -1;
        for (let i = 1; i < records.length; i++) {
          const [before, after] = [records[i - 1]!, records[i]!];
          const byKey = compare(SORT_KEY[orderBy](before), SORT_KEY[orderBy](after)) * sign;
          const byCreated = compare(before.created_on, after.created_on) * sign;
          expect(byKey < 0 || (byKey === 0 && byCreated < 0), `records ${i - 1} and ${i}`).toBe(true);
        }
      });
    }
  }

  it('has more than one distinct key for every order_by, so the sort is observable', async () => {
    const { records } = await getAllResults(sandbox.current);
    for (const orderBy of ORDER_BY_VALUES) {
      expect(new Set(records.map(SORT_KEY[orderBy])).size, orderBy).toBeGreaterThan(1);
    }
  });

  it('defaults to created_on desc', async () => {
    const implicit = await getResults(sandbox.current, { query: { page_size: 50 } });
    const explicit = await getResults(sandbox.current, { query: { page_size: 50, order_by: 'created_on', order_dir: 'desc' } });
    expect(implicit.body.data).toEqual(explicit.body.data);
    const created = (implicit.body.data as FeeScheduleResult[]).map((record) => record.created_on);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('defaults order_dir to desc for any order_by', async () => {
    const implicit = await getResults(sandbox.current, { query: { order_by: 'fee_category' } });
    const explicit = await getResults(sandbox.current, { query: { order_by: 'fee_category', order_dir: 'desc' } });
    expect(implicit.body.data).toEqual(explicit.body.data);
  });

  it('keeps filtered results in order across pages too', async () => {
    const { records } = await getAllResults(sandbox.current, {
      query: { fee_type: 'Option', order_by: 'supplier_name', order_dir: 'asc', page_size: 11 },
    });
    const names = records.map(SORT_KEY.supplier_name);
    expect(names).toEqual([...names].sort(compare));
    expect(new Set(records.map((record) => record.id)).size).toBe(records.length);
  });
});
