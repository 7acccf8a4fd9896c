import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { emptyResultsPage, sendJson, useRecordingServers } from '../helpers/recording-server.js';

// Issue 14, point 11: the results envelope is checked before its numbers steer a walk.
const KEY = 'secret-key-0123456789abcdef';
const startServer = useRecordingServers();

/** Records r<from> … r<from + count − 1>. */
const records = (from: number, count: number) => Array.from({ length: count }, (_, index) => ({ id: `r${from + index}` }));

const pageNumberOf = (url: string) => Number(new URL(url, 'http://x').searchParams.get('page_number'));

/** A server that answers page n with `pages(n)`, and anything it has no page for with a 404. */
async function serve(pages: (page: number) => unknown) {
  const server = await startServer((request, response) => {
    const body = pages(pageNumberOf(request.url));
    if (body === undefined) sendJson(response, 404, { detail: 'Not Found' });
    else sendJson(response, 200, body);
  });
  const pageNumbers = () => server.requests.map((request) => pageNumberOf(request.url));
  return { ...server, pageNumbers, host: new URL(server.url).host, env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } };
}

/** Page n of an honest walk over `total` records at `size` a page. */
const honest = (total: number, size: number) => (page: number) => {
  if (page * size >= total) return undefined;
  const data = records(page * size, Math.min(size, total - page * size));
  return { ...emptyResultsPage(size, page), data, total_records: total, total_pages: Math.ceil(total / size) };
};

const DRIFT_HINT = 'The data changed while it was read: run the command again, or add --allow-drift to accept it.\n';
const COUNT = 'a whole number from 0 to 2⁵³ − 1';

describe('a first page that does not add up is refused before any other request', () => {
  const good = { ...emptyResultsPage(100), data: records(0, 2), total_records: 2, total_pages: 1 };
  it.each<[string, unknown, string]>([
    ['total_records 1.5', { ...good, total_records: 1.5 }, `total_records is 1.5, not ${COUNT}`],
    ['total_records -1', { ...good, total_records: -1 }, `total_records is -1, not ${COUNT}`],
    ['total_records "3"', { ...good, total_records: '3' }, `total_records is "3", not ${COUNT}`],
    ['total_records null', { ...good, total_records: null }, `total_records is null, not ${COUNT}`],
    ['total_records 1e300', { ...good, total_records: 1e300 }, `total_records is 1e+300, not ${COUNT}`],
    ['no page_size', { ...good, page_size: undefined }, 'page_size is missing'],
    ['total_pages 2⁵³', { ...good, total_pages: 2 ** 53 }, `total_pages is 9007199254740992, not ${COUNT}`],
    ['current_page "0"', { ...good, current_page: '0' }, `current_page is "0", not ${COUNT}`],
    ['10⁹ pages for 5 records', { ...good, data: records(0, 5), total_records: 5, total_pages: 10 ** 9 }, 'total_pages is 1000000000, but 5 records at 100 a page make 1'],
    ['a page too few', { ...good, total_records: 130, page_size: 20, total_pages: 6 }, 'total_pages is 6, but 130 records at 20 a page make 7'],
    ['two pages for one record', { ...good, data: records(0, 1), total_records: 1, total_pages: 2 }, 'total_pages is 2, but 1 record at 100 a page makes 1'],
    ['a page for no records', { ...good, data: [], total_records: 0 }, 'total_pages is 1, but 0 records at 100 a page make 0'],
    ['page_size 0 with records', { ...good, page_size: 0 }, 'page_size is 0, but total_records is 2'],
    ['another page than asked', { ...good, current_page: 1 }, 'current_page is 1, but page 0 was asked for'],
    ['a body that is not an object', null, 'the body is null, not an object'],
    ['no data', { ...good, data: undefined }, 'data is missing'],
    ['data an object', { ...good, data: { id: 'r0' } }, 'data is {"id":"r0"}, not an array'],
    ['more records than page_size', { ...good, data: records(0, 3), total_records: 3, page_size: 2, total_pages: 2 }, 'data holds 3 records, more than page_size 2'],
    ['a null record', { ...good, data: [{ id: 'r0' }, null] }, 'data[1] is null, not an object'],
    ['an array as a record', { ...good, data: [['r0'], { id: 'r1' }] }, 'data[0] is ["r0"], not an object'],
    ['a record without id', { ...good, data: [{ id: 'r0' }, { fee_type: 'Option' }] }, 'data[1].id is missing'],
    ['a numeric id', { ...good, data: [{ id: 7 }, { id: 'r1' }] }, 'data[0].id is 7, not a non-empty string'],
    ['an empty id', { ...good, data: [{ id: 'r0' }, { id: '' }] }, 'data[1].id is "", not a non-empty string'],
    [
      'server text with the key and control characters, cut short',
      { ...good, current_page: `\u009b2J ${KEY}\n and on and on and on and on and on` },
      `current_page is "\\x9b2J ***\\n and on and on and on and o…, not ${COUNT}`,
    ],
  ])('%s: one line, exit 1, one request', async (_name, body, what) => {
    const server = await serve((page) => (page === 0 ? body : undefined));
    const run = await runInProcess(['results', '--all'], { env: server.env });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: ${server.host} sent a malformed answer: ${what}\n` });
    expect(server.requests).toHaveLength(1);
  });
});

describe('later pages of a walk', () => {
  it('refuses a page that is not the one asked for', async () => {
    const server = await serve(() => honest(250, 100)(0));
    const run = await runInProcess(['results', '--all'], { env: server.env });
    expect(run).toMatchObject({ code: 1, stderr: `mkt: ${server.host} sent a malformed answer: current_page is 0, but page 1 was asked for\n` });
  });

  it('refuses a page_size that changes during the walk', async () => {
    const pages = [
      { ...emptyResultsPage(100, 0), data: records(0, 100), total_records: 250, total_pages: 3 },
      { ...emptyResultsPage(50, 1), data: records(100, 50), total_records: 250, total_pages: 5 },
      { ...emptyResultsPage(100, 2), data: records(150, 100), total_records: 250, total_pages: 3 },
    ];
    const server = await serve((page) => pages[page]);
    const run = await runInProcess(['results', '--all'], { env: server.env });
    expect(run).toMatchObject({
      code: 1,
      stderr: `mkt: ${server.host} sent a malformed answer: page_size changed from 100 to 50 during the walk (page 1)\n`,
    });
  });

  describe('an empty page before the last one is drift', () => {
    const withHole = (page: number) => (page === 1 ? { ...emptyResultsPage(100, 1), total_records: 250, total_pages: 3 } : honest(250, 100)(page));

    it('fails the walk', async () => {
      const server = await serve(withHole);
      const run = await runInProcess(['results', '--all'], { env: server.env });
      expect(run).toMatchObject({ code: 1, stderr: `mkt: page 1 is empty, but the service reported 250 records on 3 pages\n${DRIFT_HINT}` });
    });

    it('warns once and goes on under --allow-drift', async () => {
      const server = await serve(withHole);
      const run = await runInProcess(['results', '--all', '--allow-drift', '-f', 'ndjson'], { env: server.env });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('warning: page 1 is empty, but the service reported 250 records on 3 pages; continuing because of --allow-drift\n');
      expect(run.stdout.trimEnd().split('\n')).toHaveLength(150);
      expect(server.pageNumbers()).toEqual([0, 1, 2]);
    });
  });
});

describe('a walk pages by the size the server says it used', () => {
  // Asked for 100 a page, the server serves 50: it may cap a size, and says so in page_size.
  const capped = honest(12_345, 50);

  it('--limit reads as many of its pages as the limit needs, --all exactly ceil(total_records / page_size)', async () => {
    const limited = await serve(capped);
    const some = await runInProcess(['results', '--limit', '150', '-f', 'ndjson'], { env: limited.env });
    expect(some).toMatchObject({ code: 0, stderr: '' });
    expect(some.stdout.trimEnd().split('\n')).toHaveLength(150);
    expect(limited.pageNumbers()).toEqual([0, 1, 2]);

    const walked = await serve(capped);
    const all = await runInProcess(['results', '--all', '-f', 'ndjson'], { env: walked.env });
    expect(all).toMatchObject({ code: 0, stderr: '' });
    expect(all.stdout.trimEnd().split('\n')).toHaveLength(12_345);
    expect(walked.pageNumbers().sort((a, b) => a - b)).toEqual(Array.from({ length: 247 }, (_, page) => page));
  });
});
