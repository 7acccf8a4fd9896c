import { describe, expect, it } from 'vitest';
import { checkResultsPage } from '../../../src/api/results-page.js';
import { MalformedResponseError } from '../../../src/core/errors.js';

const KEY = 'secret-key-0123456789abcdef';
const asked = (page = 0) => ({ host: 'api.example.com', key: KEY, page });
const envelope = (fields: Record<string, unknown>) => ({
  success: true,
  message: 'ok',
  data: [],
  total_records: 0,
  page_size: 100,
  total_pages: 0,
  current_page: 0,
  query_time: 0.01,
  disable_jsonable_encoder: false,
  ...fields,
});
/** What checkResultsPage throws for `body`, as page 0. */
function refusal(body: unknown): unknown {
  try {
    checkResultsPage(body, asked());
  } catch (error) {
    return error;
  }
  return undefined;
}
const ids = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `${index}`, fee_notes: null }));

describe('checkResultsPage', () => {
  it.each<[string, Record<string, unknown>, number]>([
    ['a full page', { data: ids(100), total_records: 250, total_pages: 3 }, 0],
    ['the last page, partly filled', { data: ids(50), total_records: 250, total_pages: 3, current_page: 2 }, 2],
    ['a page past the end, empty', { total_records: 250, total_pages: 3, current_page: 7 }, 7],
    ['no records', {}, 0],
    ['no records at page_size 0: nothing to page', { page_size: 0 }, 0],
    ['a page_size other than the one asked (a capped size)', { data: ids(50), total_records: 120, page_size: 50, total_pages: 3 }, 0],
    ['one record', { data: ids(1), total_records: 1, total_pages: 1 }, 0],
    ['the largest count', { total_records: 2 ** 53 - 1, page_size: 1, total_pages: 2 ** 53 - 1 }, 0],
    ['an id of 256 characters', { data: [{ id: 'i'.repeat(256) }], total_records: 1, total_pages: 1 }, 0],
  ])('accepts %s, and returns its records as they are and its counts', (_name, fields, page) => {
    const body = envelope(fields);
    const checked = checkResultsPage(body, asked(page));
    expect(checked).toEqual({
      shape: 'interface',
      data: body.data,
      total_records: body.total_records,
      page_size: body.page_size,
      total_pages: body.total_pages,
      current_page: body.current_page,
    });
    expect(checked.data).toBe(body.data);
  });

  it.each<[string, unknown, string]>([
    ['a string', 'ok', 'the body is "ok", not an object'],
    ['an array', [], 'the body is [], not an object'],
    ['-0.5 records', envelope({ total_records: -0.5 }), 'total_records is -0.5, not a whole number from 0 to 2⁵³ − 1'],
    ['2⁵³ records', envelope({ total_records: 2 ** 53 }), 'total_records is 9007199254740992, not a whole number from 0 to 2⁵³ − 1'],
    ['no current_page', envelope({ current_page: undefined }), 'current_page is missing'],
    ['a page too many', envelope({ data: ids(100), total_records: 200, total_pages: 3 }), 'total_pages is 3, but 200 records at 100 a page make 2'],
    ['an id that quotes the key', envelope({ data: [{ id: [`\u2028${KEY}`] }], total_records: 1, total_pages: 1 }), 'data[0].id is ["\\u2028***"], not a non-empty string'],
    ['an id of 257 characters', envelope({ data: [...ids(2), { id: 'i'.repeat(257) }], total_records: 3, total_pages: 1 }), 'data[2].id is 257 characters long, more than 256'],
    ['an id of 1 MB', envelope({ data: [{ id: 'i'.repeat(2 ** 20) }], total_records: 1, total_pages: 1 }), 'data[0].id is 1048576 characters long, more than 256'],
  ])('refuses %s', (_name, body, what) => {
    const error = refusal(body);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as Error).message).toBe(`api.example.com sent a malformed answer: ${what}`);
  });

  it('quotes at most 40 characters of what the server sent', () => {
    expect((refusal(envelope({ total_pages: 'x'.repeat(10_000) })) as Error).message).toBe(
      `api.example.com sent a malformed answer: total_pages is "${'x'.repeat(39)}…, not a whole number from 0 to 2⁵³ − 1`,
    );
  });

  describe('the 2026 envelope, {data, meta}', () => {
    const page2026 = (meta: Record<string, unknown>, data: unknown = []) => ({
      data,
      meta: { record_count: 0, total_pages: 0, current_page: 0, page_size: 100, query_time_ms: 3, ...meta },
    });
    const recordIds = (count: number) => Array.from({ length: count }, (_, index) => ({ record_id: `r${index}`, fee_notes: null }));

    it('is read from meta, record_count as total_records, the records as sent', () => {
      const data = recordIds(2);
      const checked = checkResultsPage(page2026({ record_count: 102, total_pages: 2, current_page: 1 }, data), asked(1));
      expect(checked).toEqual({ shape: '2026', data, total_records: 102, page_size: 100, total_pages: 2, current_page: 1 });
      expect(checked.data).toBe(data);
    });

    it.each<[string, unknown, string]>([
      ['meta that is not an object', { data: [], meta: null }, 'meta is null, not an object'],
      ['no record_count', page2026({ record_count: undefined }), 'meta.record_count is missing'],
      ['a fractional page_size', page2026({ page_size: 2.5 }), 'meta.page_size is 2.5, not a whole number from 0 to 2⁵³ − 1'],
      ['pages that do not add up', page2026({ record_count: 4242, total_pages: 4242, page_size: 10 }), 'meta.total_pages is 4242, but 4242 records at 10 a page make 425'],
      ['another page than the one asked', page2026({ current_page: 3 }), 'meta.current_page is 3, but page 0 was asked for'],
      ['page_size 0 with records', page2026({ record_count: 1, total_pages: 1, page_size: 0 }), 'meta.page_size is 0, but meta.record_count is 1'],
      ['more records than page_size', page2026({ record_count: 3, total_pages: 2, page_size: 2 }, recordIds(3)), 'data holds 3 records, more than meta.page_size 2'],
      ['a record without an id', page2026({ record_count: 1, total_pages: 1 }, [{ id: 7 }]), 'data[0].record_id is missing'],
      ['an empty record_id', page2026({ record_count: 1, total_pages: 1 }, [{ record_id: '' }]), 'data[0].record_id is "", not a non-empty string'],
      ['a record_id of 257 characters', page2026({ record_count: 1, total_pages: 1 }, [{ record_id: 'r'.repeat(257) }]), 'data[0].record_id is 257 characters long, more than 256'],
      ['data that is not an array', page2026({}, {}), 'data is {}, not an array'],
      [
        'both envelopes at once',
        { ...page2026({}), total_records: 0 },
        "the body holds both the interface document's flat total_records… and the 2026 edition's meta",
      ],
    ])('refuses %s, naming the field as the server sent it', (_name, body, what) => {
      const error = refusal(body);
      expect(error).toBeInstanceOf(MalformedResponseError);
      expect((error as Error).message).toBe(`api.example.com sent a malformed answer: ${what}`);
    });

    it('takes a record by the id it carries, either name, under either envelope', () => {
      expect(checkResultsPage(page2026({ record_count: 1, total_pages: 1 }, [{ id: 'a' }]), asked()).total_records).toBe(1);
      expect(checkResultsPage(envelope({ data: [{ record_id: 'b' }], total_records: 1, total_pages: 1 }), asked()).shape).toBe('interface');
    });

    it('reads a body with neither envelope as the interface document\'s, whose counts it then misses', () => {
      expect((refusal({ data: [] }) as Error).message).toBe('api.example.com sent a malformed answer: total_records is missing');
    });
  });
});
