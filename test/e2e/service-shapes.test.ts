import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { type RecordedRequest, sendJson, useRecordingServers } from '../helpers/recording-server.js';
import type { ServerResponse } from 'node:http';

// Issue 38, points 1 and 5: mkt reads the 2026 edition's answers (shared/service-2026.md) as
// well as the interface document's, from the answer itself (docs/service-shapes.md).
const KEY = 'test-key-0123456789abcdef';
const startServer = useRecordingServers();

/** Records of the 2026 edition: record_id, no created_on, snake_case values. */
const records2026 = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => ({ record_id: `r${from + index}`, exchange_name: 'nasdaq_phlx', fee_type: 'option', fee_category: 'fees_and_rebates' }));

/** A 2026 results page: `{data, meta}`. */
const page2026 = (data: unknown[], meta: { record_count: number; page_size: number; current_page?: number }) => ({
  data,
  meta: { current_page: 0, total_pages: Math.ceil(meta.record_count / meta.page_size), query_time_ms: 4, ...meta },
});

/** The 2026 error body. */
const error2026 = (code: string, message: string, details?: unknown) => ({ error: { code, message, ...(details === undefined ? {} : { details }) }, meta: { query_time_ms: 1 } });

async function serve(respond: (request: RecordedRequest, response: ServerResponse) => void) {
  const server = await startServer(respond);
  return { ...server, env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } };
}

describe('the 2026 results envelope', () => {
  it('a page is printed with its records exactly as sent', async () => {
    const data = records2026(1);
    const server = await serve((_request, response) => sendJson(response, 200, page2026(data, { record_count: 1, page_size: 20 })));
    const run = await runInProcess(['results', '-f', 'ndjson'], { env: server.env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(data.map((record) => `${JSON.stringify(record)}\n`).join(''));
  });

  it('a meta whose pages do not add up is a malformed answer naming meta.total_pages', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, { data: [], meta: { record_count: 5, total_pages: 9, current_page: 0, page_size: 2 } }));
    const run = await runInProcess(['results'], { env: server.env });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: ${new URL(server.url).host} sent a malformed answer: meta.total_pages is 9, but 5 records at 2 a page make 3\n`,
    });
  });
});
