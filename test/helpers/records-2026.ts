import type { FeeScheduleResult2026 } from '../../src/api/types.js';
import { emptyResultsPage, sendJson, type useRecordingServers } from './recording-server.js';

/**
 * Line item `n` of version `version`, as the 2026 edition sends it (shared/service-2026.md):
 * `record_id`, no `created_on` or `fee_reference`, snake_case values, and its citation.
 */
export function record2026(n: number, version = 'v1', fields: Partial<FeeScheduleResult2026> = {}): FeeScheduleResult2026 {
  return {
    record_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    exchange_name: 'nyse',
    scraped_time: version === 'v1' ? '2026-02-26T00:00:50.839337Z' : '2026-03-26T00:00:50.839337Z',
    version_id: version,
    fee_type: 'equity',
    source_document: 'NYSE Price List.pdf',
    source_link: `https://cdn.example.com/nyse/${version}.pdf`,
    page_number: 3 + (n % 5),
    fee_category: 'fees_and_rebates',
    fee_charge_type: `Charge ${n}`,
    fee_amount: `$0.00${n % 10}0`,
    fee_action: 'take',
    fee_action_details: null,
    fee_basis: 'per share',
    fee_participant: 'broker_dealer',
    fee_participant_details: null,
    fee_monthly_volume: null,
    fee_monthly_volume_criteria: null,
    fee_symbol_classification: 'all',
    fee_symbol_type: null,
    fee_trade_type: null,
    fee_symbol: '{All}',
    fee_excluded_symbols: '{}',
    fee_conditions: null,
    fee_exclusions: null,
    fee_notes: n % 2 === 0 ? 'A note, "quoted"' : null,
    fee_extra_info: null,
    relationships: n % 3 === 0 ? { footnotes: [{ text: `Footnote ${n}.` }], definitions: [{ term: 'ADV', text: 'Average daily volume.' }] } : null,
    ...fields,
  };
}

/**
 * A service whose results endpoint answers with `records()` (read at each request, so that a test
 * may add some between syncs), in the order they were made (the array's), paged as asked, by
 * created_on, which the records do not carry, or scraped_time, in either direction. Filters are
 * not applied. Pages come in the interface's flat envelope: the 2026 envelope is read by the page
 * check of issue 38's other part, and the records are what these tests are about.
 */
export async function serve2026Records(startServer: ReturnType<typeof useRecordingServers>, records: () => readonly FeeScheduleResult2026[]) {
  const server = await startServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    if (url.pathname !== '/api/v1/fee-schedule-results') return sendJson(response, 404, { detail: 'Not Found' });
    const size = Number(url.searchParams.get('page_size') ?? 20);
    const page = Number(url.searchParams.get('page_number') ?? 0);
    const made = records().map((record, index) => ({ record, index }));
    const key = url.searchParams.get('order_by') === 'scraped_time'
      ? (a: (typeof made)[number], b: (typeof made)[number]) => a.record.scraped_time.localeCompare(b.record.scraped_time) || a.index - b.index
      : (a: (typeof made)[number], b: (typeof made)[number]) => a.index - b.index;
    const ordered = made.sort(key).map(({ record }) => record);
    if (url.searchParams.get('order_dir') !== 'asc') ordered.reverse();
    const data = ordered.slice(page * size, (page + 1) * size);
    sendJson(response, 200, { ...emptyResultsPage(size, page), data, total_records: ordered.length, total_pages: Math.ceil(ordered.length / size) });
  });
  return { ...server, env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'key-2026-0123456789' } };
}
