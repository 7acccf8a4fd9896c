import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { getResults, type Query } from './http.js';

const sandbox = useSandbox();

async function issues(query: Query): Promise<unknown> {
  const { status, body } = await getResults(sandbox.current, { query });
  expect(status).toBe(422);
  return body;
}

describe('results query validation (FastAPI-style 422)', () => {
  it('rejects page_size above 100', async () => {
    expect(await issues({ page_size: 101 })).toStrictEqual({
      detail: [
        { type: 'less_than_equal', loc: ['query', 'page_size'], msg: 'Input should be less than or equal to 100', input: '101', ctx: { le: 100 } },
      ],
    });
  });

  it('rejects page_size below 1', async () => {
    expect(await issues({ page_size: 0 })).toStrictEqual({
      detail: [
        { type: 'greater_than_equal', loc: ['query', 'page_size'], msg: 'Input should be greater than or equal to 1', input: '0', ctx: { ge: 1 } },
      ],
    });
  });

  it('rejects a negative page_number', async () => {
    expect(await issues({ page_number: -1 })).toStrictEqual({
      detail: [
        { type: 'greater_than_equal', loc: ['query', 'page_number'], msg: 'Input should be greater than or equal to 0', input: '-1', ctx: { ge: 0 } },
      ],
    });
  });

  it('rejects non-integer page_size and page_number', async () => {
    for (const [name, input] of [['page_size', '2.5'], ['page_size', 'ten'], ['page_number', '1e3'], ['page_number', '']] as const) {
      expect(await issues({ [name]: input })).toStrictEqual({
        detail: [
          { type: 'int_parsing', loc: ['query', name], msg: 'Input should be a valid integer, unable to parse string as an integer', input },
        ],
      });
    }
  });

  it('rejects an unknown order_by, naming the allowed values', async () => {
    const expected = "'created_on', 'scraped_time', 'supplier_name', 'fee_type' or 'fee_category'";
    expect(await issues({ order_by: 'exchange_name' })).toStrictEqual({
      detail: [{ type: 'enum', loc: ['query', 'order_by'], msg: `Input should be ${expected}`, input: 'exchange_name', ctx: { expected } }],
    });
  });

  it('rejects an unknown order_dir', async () => {
    expect(await issues({ order_dir: 'DESC' })).toStrictEqual({
      detail: [{ type: 'enum', loc: ['query', 'order_dir'], msg: "Input should be 'asc' or 'desc'", input: 'DESC', ctx: { expected: "'asc' or 'desc'" } }],
    });
  });

  it('rejects a latest_only that is not a boolean', async () => {
    expect(await issues({ latest_only: 'maybe' })).toStrictEqual({
      detail: [{ type: 'bool_parsing', loc: ['query', 'latest_only'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' }],
    });
  });

  it('rejects dates that are not YYYY-MM-DD calendar dates', async () => {
    for (const input of ['2024-02-30', '01/05/2024', '2024-5-1']) {
      expect(await issues({ end_date: input })).toStrictEqual({
        detail: [
          { type: 'date_from_datetime_parsing', loc: ['query', 'end_date'], msg: 'Input should be a valid date in the format YYYY-MM-DD', input },
        ],
      });
    }
  });

  it('reports every invalid parameter at once', async () => {
    const body = (await issues({ page_size: 500, page_number: -2, order_by: 'x' })) as { detail: { loc: string[] }[] };
    expect(body.detail.map((issue) => issue.loc[1])).toEqual(['page_size', 'page_number', 'order_by']);
  });

  it('checks the key before the query: a bad query with a bad key is 401', async () => {
    const { status } = await getResults(sandbox.current, { key: 'not-a-key', query: { page_size: 500 } });
    expect(status).toBe(401);
  });
});
