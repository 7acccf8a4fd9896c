import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';
import { SEGMENTED_AT_ONCE } from '../../src/output/text-width.js';
import { longestSegmented } from '../helpers/longest-segmented.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { sendJson, sendText, type Responder, useRecordingServers } from '../helpers/recording-server.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 14, points 5, 6 and 13: what a hostile server says is printed without the key, on one line.
const KEY = 'secret-key-0123456789abcdef';
const startServer = useRecordingServers();

async function serve(respond: Responder) {
  const server = await startServer(respond);
  return { ...server, host: new URL(server.url).host, env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } };
}

describe('the key never comes back out of server text (point 5)', () => {
  it.each([400, 422])('removes the key from the detail of a %i', async (status) => {
    const server = await serve((_request, response) => sendJson(response, status, { detail: `bad key ${KEY}` }));
    const run = await runInProcess(['results'], { env: server.env });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `mkt: the service rejected the request (${status}): bad key ***\n` });
  });

  it('removes the key from the message of a 500 after the retries, and from the --verbose log', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 500, { message: `echo: x-service-api-access-key=${encodeURIComponent(KEY)} ${KEY}` }, {
        'retry-after': '0',
        'x-ratelimit-remaining': `99 ${KEY}`,
      }),
    );
    const run = await runInProcess(['results', '--retries', '1', '--verbose'], { env: server.env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toContain(KEY);
    expect(run.stderr).toContain('x-ratelimit-remaining: 99 ***');
    expect(run.stderr).toContain('  body: {"message":"echo: x-service-api-access-key=*** ***"}');
    expect(run.stderr).toContain(`mkt: gave up after 2 tries: 500 Internal Server Error from ${server.host}: echo: x-service-api-access-key=*** ***\n`);
  });

  it('removes the bearer key from the detail of an exchange endpoint', async () => {
    const server = await serve((_request, response) => sendJson(response, 500, { detail: `Authorization: Bearer ${KEY}` }));
    const run = await runInProcess(['fees', 'NYSE', '--retries', '0'], { env: server.env });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: gave up after 1 try: 500 Internal Server Error from ${server.host}: Authorization: Bearer ***\n`,
    });
    const verbose = await runInProcess(['fees', 'NYSE', '--retries', '0', '--verbose'], { env: server.env });
    expect(verbose.stderr).not.toContain(KEY);
    expect(verbose.stderr).toContain('  body: {"detail":"Authorization: Bearer ***"}\n');
  });
});

describe('control characters are made visible (point 6)', () => {
  it('prints a forged line and escape sequences as one visible line', async () => {
    const detail = 'bad\u001b[2J\u001b[Hvalue\r\nmkt: all good\u0007\u009b\u202e';
    const server = await serve((_request, response) => sendJson(response, 422, { detail }));
    const run = await runInProcess(['results'], { env: server.env });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mkt: the service rejected the request (422): bad\\x1b[2J\\x1b[Hvalue\\x0d\\x0amkt: all good\\x07\\x9b\\u202e\n',
    });
  });

  it('cleans the body and headers in the --verbose log', async () => {
    const server = await serve((_request, response) =>
      sendText(response, 503, '<html>\n\u001b]0;pwned\u0007</html>', { 'retry-after': '0', 'x-ratelimit-remaining': '5\u009b2J' }),
    );
    const run = await runInProcess(['results', '--retries', '0', '--verbose'], { env: server.env });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/[\u001b\u009b]/);
    // Node reads header bytes as Latin-1: the UTF-8 of U+009B arrives as "Â" and U+009B.
    expect(run.stderr).toContain('x-ratelimit-remaining: 5\u00c2\\x9b2J');
    expect(run.stderr).toContain('  body: <html>\\x0a\\x1b]0;pwned\\x07</html>\n');
  });
});

describe('a 5xx that outlives the retries says what the server said (point 13)', () => {
  it('ends the one line with the detail of the last answer', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 503, { detail: 'maintenance until 22:00 UTC\n' }, { 'retry-after': '0' }),
    );
    const run = await runInProcess(['rules', 'NYSE', '--retries', '2'], { env: server.env });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: gave up after 3 tries: 503 Service Unavailable from ${server.host}: maintenance until 22:00 UTC\\x0a\n`,
    });
    expect(server.requests).toHaveLength(3);
  });
});

// Issue 35, point 6: ids, exchange names, fee types and version ids are server text in every message and summary.
describe('server values in messages and summaries (issue 35, point 6)', () => {
  const HOSTILE = '\u001b]0;TITLE\u0007\u001b[2J…\r\nFORGED: line';
  const SHOWN = '\\x1b]0;TITLE\\x07\\x1b[2J…\\x0d\\x0aFORGED: line';
  // A key with characters a server percent-encodes, echoed with lower-case hex.
  const ODD_KEY = 'SeCrEtKeY/with+plus';
  const LOWER_ECHO = 'SeCrEtKeY%2fwith%2bplus';

  function record(fields: Record<string, unknown>): Record<string, unknown> {
    const base: Record<string, unknown> = {
      exchange_name: 'X', fee_type: 'Equity', fee_category: 'Participant Fee', fee_charge_type: 'c', fee_amount: '$1', fee_action: 'Other', fee_notes: '',
      version_id: 'v', scraped_time: '2024-01-02T03:04:05.000000+00:00', created_on: '2024-01-02T03:04:05.000000', ...fields,
    };
    return Object.fromEntries(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [name, base[name] ?? null]));
  }

  /** A server that answers every results query with these records on one page. */
  async function serveRecords(records: Record<string, unknown>[]) {
    const server = await startServer((_request, response) =>
      sendJson(response, 200, { success: true, message: '', data: records, total_records: records.length, page_size: 100, total_pages: 1, current_page: 0, query_time: 0.1, disable_jsonable_encoder: false }),
    );
    const env = { MKT_BASE_URL: server.url, MKT_API_KEY: ODD_KEY, MKT_MIRROR: join(tempDir('mkt-mirror-'), 'm.duckdb') };
    return { host: new URL(server.url).host, env };
  }

  it.each([ODD_KEY, LOWER_ECHO, 'SeCrEtKeY%2Fwith+plus'])('keeps the key, echoed as %s in a record id, out of sync\'s malformed-answer message', async (echo) => {
    const server = await serveRecords([record({ id: `id-${echo}`, created_on: 'yesterday' })]);
    const run = await runInProcess(['sync'], { env: server.env });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: ${server.host} sent a malformed answer: record id-*** has a created_on that is not an ISO 8601 timestamp\n` });
  });

  it('names a record by its id\'s length when the id is too long to quote whole, so that no key is cut in two', async () => {
    // Longer than a message quotes (128), within what a page may carry (256).
    const id = `${'x'.repeat(190)}${ODD_KEY}`;
    const server = await serveRecords([record({ id, created_on: 'yesterday' })]);
    const run = await runInProcess(['sync'], { env: server.env });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: ${server.host} sent a malformed answer: a record whose id is 209 characters long has a created_on that is not an ISO 8601 timestamp\n` });
  });

  it('takes the key out of a name in the sync summary before a long name is cut', async () => {
    const server = await serveRecords([record({ id: 'a', exchange_name: `${'x'.repeat(995)}${ODD_KEY}` })]);
    const run = await runInProcess(['sync'], { env: server.env, now: () => 0 });
    expect(run.stderr).toBe(`synced ${server.env.MKT_MIRROR}: 1 new record (${'x'.repeat(995)}*** E…) · 1 record in all · 3 requests · full walk · 0.0 s\n`);
  });

  it('keeps the key in a record id out of diff\'s malformed-answer message', async () => {
    const server = await serveRecords([record({ id: `id-${LOWER_ECHO}\n`, scraped_time: 'soon' })]);
    const run = await runInProcess(['diff', 'X', 'Equity'], { env: server.env });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: ${server.host} sent a malformed answer: record id-***\\x0a has a scraped_time that is not a timestamp\n` });
  });

  it('prints an exchange name and fee type in the sync summary as one visible line', async () => {
    const server = await serveRecords([record({ id: 'a', exchange_name: HOSTILE, fee_type: `${HOSTILE} ${ODD_KEY}` })]);
    const run = await runInProcess(['sync'], { env: server.env, now: () => 0 });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toBe(`synced ${server.env.MKT_MIRROR}: 1 new record (${SHOWN} ${SHOWN} ***) · 1 record in all · 3 requests · full walk · 0.0 s\n`);
  });

  it('prints version ids in the diff summary, and in its note of a single version, as one visible line', async () => {
    const older = record({ id: 'a', version_id: `${HOSTILE}-old`, scraped_time: '2024-01-01T00:00:00.000000+00:00' });
    const newer = record({ id: 'b', version_id: `${HOSTILE}-${LOWER_ECHO}`, fee_amount: '$2' });
    const two = await serveRecords([newer, older]);
    const run = await runInProcess(['diff', 'X', 'Equity', '-f', 'json'], { env: two.env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`X Equity: 1 changed, 0 added, 0 removed · ${SHOWN}-old (2024-01-01) → ${SHOWN}-*** (2024-01-02)\n`);
    const one = await serveRecords([newer]);
    const single = await runInProcess(['diff', 'X', 'Equity', '-f', 'json'], { env: one.env });
    expect(single.stderr).toBe(`X Equity has one version only (${SHOWN}-***, scraped 2024-01-02T03:04:05.000000+00:00): nothing to compare\n`);
  });

  it('lays a note of 26,000 characters out in a table at a terminal, segmenting no more than a piece of it at once', async () => {
    // Node 20 segments a text in time that grows with the square of its length (src/output/text-width.ts).
    const server = await serveRecords([record({ id: 'a', fee_notes: 'Rule text e\u0301 with a mark. '.repeat(1000) })]);
    const { result: run, longest } = await longestSegmented(() =>
      runInProcess(['results', '--columns', 'exchange_name,fee_notes'], { env: server.env, stdout: { isTTY: true, columns: 80 } }));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('│ X        │ Rule text e\u0301 with a mark. Rule text e\u0301 with a mark. Rule text e\u0301 wi… │\n');
    expect(longest).toBeLessThanOrEqual(SEGMENTED_AT_ONCE);
  });

  it('takes the key out of a detail that echoes it in lower-case percent-encoding', async () => {
    const server = await startServer((_request, response) => sendJson(response, 422, { detail: `bad key ${LOWER_ECHO}` }));
    const run = await runInProcess(['results'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: ODD_KEY } });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: 'mkt: the service rejected the request (422): bad key ***\n' });
  });
});
