import { afterEach, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/core/version.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { closedPort, emptyResultsPage, sendJson, sendText, startRecordingServer } from '../helpers/recording-server.js';

const KEY = 'test-key-0123456789abcdef';
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function recorder(...args: Parameters<typeof startRecordingServer>) {
  const server = await startRecordingServer(...args);
  servers.push(server);
  return server;
}

describe('what the client sends', () => {
  it('maps every results flag to its query parameter, in the document spelling when the service lists no filter values', async () => {
    const server = await recorder((_request, response) => sendJson(response, 200, emptyResultsPage(50, 3)));
    const run = await runInProcess(
      [
        'results',
        '--exchange-name', 'NYSE,CBOE',
        '--exchange', 'IEX',
        '--supplier-name', 'New York Stock Exchange',
        '--fee-type', 'option',
        '--fee-category', 'market data fees',
        '--fee-action', 'make,TAKE',
        '--fee-participant', 'market maker',
        '--fee-symbol-classification', 'etf',
        '--fee-symbol-type', 'non penny',
        '--fee-trade-type', 'simple order',
        '--since', '2024-01-01',
        '--end-date', '2024-12-31',
        '--latest-only',
        '--order-by', 'fee_type',
        '--order-dir', 'asc',
        '--page-size', '50',
        '--page-number', '3',
      ],
      { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/v1/fee-schedule-results/filters',
      '/api/v1/fee-schedule-results?exchange_name=NYSE&exchange_name=CBOE&exchange_name=IEX'
        + '&supplier_name=New+York+Stock+Exchange&fee_type=Option&fee_category=Market+Data+Fees'
        + '&fee_action=Make&fee_action=Take&fee_participant=Market+Maker&fee_symbol_classification=ETF'
        + '&fee_symbol_type=Non+Penny&fee_trade_type=Simple+Order&start_date=2024-01-01&end_date=2024-12-31'
        + '&latest_only=true&order_by=fee_type&order_dir=asc&page_size=50&page_number=3',
    ]);
  });

  it('sends the key in x-service-api-access-key to the results endpoint, and a User-Agent', async () => {
    const server = await recorder();
    await runInProcess(['results'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    const headers = server.requests[0]?.headers;
    expect(headers?.['x-service-api-access-key']).toBe(KEY);
    expect(headers?.authorization).toBeUndefined();
    expect(headers?.['user-agent']).toBe(`mkt/${VERSION}`);
  });

  it('sends Authorization: Bearer and Content-Type: application/json to the exchange endpoints', async () => {
    const body = { exchange: 'NYSE', order_types: [], last_updated: '2024-01-01T00:00:00Z' };
    const server = await recorder((_request, response) => sendJson(response, 200, body));
    const run = await runInProcess(['order-types', 'NYSE', '--format', 'json'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(body);
    const request = server.requests[0];
    expect(request?.url).toBe('/api/v1/exchanges/NYSE/order-types');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-service-api-access-key']).toBeUndefined();
    expect(request?.headers['user-agent']).toBe(`mkt/${VERSION}`);
  });

  it('sends start_date and end_date for historical', async () => {
    const server = await recorder((_request, response) => sendJson(response, 200, { exchange: 'NYSE', fee_schedules: [] }));
    const run = await runInProcess(['historical', 'NYSE', '--start-date', '2024-01-01', '--end-date', '2024-12-31', '-f', 'json'], {
      env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY },
    });
    expect(run.code).toBe(0);
    expect(server.requests[0]?.url).toBe('/api/v1/exchanges/NYSE/fees/historical?start_date=2024-01-01&end_date=2024-12-31');
  });

  it.each([
    [[], '/api/v1/exchanges/NYSE/fees/historical'],
    [['--start-date', '2024-01-01'], '/api/v1/exchanges/NYSE/fees/historical?start_date=2024-01-01'],
    [['--end-date', '2024-12-31'], '/api/v1/exchanges/NYSE/fees/historical?end_date=2024-12-31'],
  ])('sends only the dates given to historical: %j', async (dates, url) => {
    const server = await recorder((_request, response) => sendJson(response, 200, { exchange: 'NYSE', fee_schedules: [] }));
    const run = await runInProcess(['historical', 'NYSE', ...dates, '-f', 'json'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({ code: 0, stdout: '{\n  "exchange": "NYSE",\n  "fee_schedules": []\n}\n', stderr: '' });
    expect(server.requests.map((request) => request.url)).toEqual([url]);
  });

  it('keeps a path prefix of the base URL', async () => {
    const server = await recorder();
    await runInProcess(['results'], { env: { MKT_BASE_URL: `${server.url}/market-data/`, MKT_API_KEY: KEY } });
    expect(server.requests[0]?.url).toBe('/market-data/api/v1/fee-schedule-results?page_number=0');
  });

  it('walks pages 0 … total_pages − 1 at one page size with --all', async () => {
    const server = await recorder((request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page_number'));
      const data = page < 2 ? [{ id: `r${page}a` }, { id: `r${page}b` }] : [{ id: 'r2a' }];
      sendJson(response, 200, { ...emptyResultsPage(2, page), data, total_records: 5, total_pages: 3 });
    });
    const run = await runInProcess(['results', '--all', '--page-size', '2', '-f', 'json'], {
      env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).map((record: { id: string }) => record.id)).toEqual(['r0a', 'r0b', 'r1a', 'r1b', 'r2a']);
    expect(server.requests.map((request) => request.url)).toEqual([0, 1, 2].map(
      (page) => `/api/v1/fee-schedule-results?page_size=2&page_number=${page}`,
    ));
  });
});

describe('bad input sends nothing and exits 2', () => {
  const cases: [string, string[], string][] = [
    ['unknown enum value', ['results', '--fee-type', 'Opton'], 'mkt: --fee-type: unknown value "Opton"; did you mean Option?\nAllowed values: Option, Equity.\n'],
    ['bad date', ['results', '--start-date', '2024-02-30'], 'mkt: --start-date: "2024-02-30" is not a date\nWrite dates as YYYY-MM-DD, e.g. 2024-01-31.\n'],
    ['page size too large', ['results', '--page-size', '101'], 'mkt: --page-size: "101" is not a whole number from 1 to 100\n'],
    ['page size zero', ['results', '--page-size', '0'], 'mkt: --page-size: "0" is not a whole number from 1 to 100\n'],
    ['negative page', ['results', '--page-number', '-1'], 'mkt: --page-number: "-1" is not a whole number ≥ 0\n'],
    ['bad historical date', ['historical', 'NYSE', '--start-date', '2024-01-01', '--end-date', '2024-13-01'], 'mkt: --end-date: "2024-13-01" is not a date\nWrite dates as YYYY-MM-DD, e.g. 2024-01-31.\n'],
    ['reversed period', ['historical', 'NYSE', '--start-date', '2024-12-31', '--end-date', '2024-01-01'], 'mkt: --start-date 2024-12-31 is after --end-date 2024-01-01\n'],
  ];
  it.each(cases)('%s', async (_name, args, stderr) => {
    const base = await closedPort();
    // An enumerated value first asks the closed port for the service's spelling: its retries are not the point.
    const run = await runInProcess(args, { env: { MKT_BASE_URL: base, MKT_API_KEY: KEY }, maxRetryDelayMs: 0 });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr });
  });

  it.each([
    [['--timeout', '5000000'], 'mkt: --timeout must be a number of seconds greater than 0, at most 86400, not "5000000"'],
    [['--timeout', '1e3'], 'mkt: --timeout must be a number of seconds greater than 0, at most 86400, not "1e3"'],
    [['--retries', '-1'], 'mkt: --retries must be a whole number ≥ 0, not "-1"'],
    [['--max-rps', '0'], 'mkt: --max-rps must be a number of requests per second from 0.01 to 10000, not "0"'],
  ])('rejects %j by the same rule as the stored setting', async (flags, message) => {
    const run = await runInProcess(['fees', 'NYSE', ...flags], { env: { MKT_BASE_URL: await closedPort(), MKT_API_KEY: KEY } });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr.split('\n')[0]).toBe(message);
  });

  it('rejects an unknown flag', async () => {
    const run = await runInProcess(['results', '--fee-tpye', 'Option'], { env: { MKT_BASE_URL: await closedPort(), MKT_API_KEY: KEY } });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("unknown option '--fee-tpye'");
    expect(run.stderr).toContain('--fee-type');
  });

  it('rejects a base URL that is not http(s)', async () => {
    const run = await runInProcess(['fees', 'NYSE'], { env: { MKT_BASE_URL: 'ftp://example.test', MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mkt: MKT_BASE_URL must be an http:// or https:// URL, not "ftp://example.test"\nFix or unset MKT_BASE_URL.\n',
    });
  });
});

describe('failures map to exit codes', () => {
  it('exits 3 with advice when there is no key, and sends nothing', async () => {
    const server = await recorder();
    const run = await runInProcess(['results'], { env: { MKT_BASE_URL: server.url } });
    expect(run).toMatchObject({
      code: 3,
      stdout: '',
      stderr: 'mkt: no API key for profile "default"\nRun `mkt auth login`, or set MKT_API_KEY. To try mkt without a key, add --sandbox.\n',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('exits 1 naming the host when the connection is refused', async () => {
    const base = await closedPort();
    const run = await runInProcess(['fees', 'NYSE', '--retries', '0'], { env: { MKT_BASE_URL: base, MKT_API_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`mkt: gave up after 1 try: connection refused by ${new URL(base).host}\n`);
  });

  it('exits 1 on a 200 whose body is not JSON, after retries', async () => {
    const server = await recorder((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>maintenance</html>');
    });
    const run = await runInProcess(['fees', 'NYSE', '--retries', '1'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `mkt: gave up after 2 tries: ${new URL(server.url).host} answered 200 with a body that is not JSON (or is cut short)\n`,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('never retries a 404, and exits 4', async () => {
    const server = await recorder((_request, response) => sendJson(response, 404, { detail: "Exchange 'nyse' not found." }));
    const run = await runInProcess(['rules', 'nyse'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 4,
      stdout: '',
      stderr: 'mkt: unknown exchange nyse (404)\nCheck the identifier: `mkt exchanges` lists the exchanges your key reaches.\n',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('shows no stack trace, --verbose or not, for an error it reports on purpose', async () => {
    const server = await recorder((_request, response) => sendJson(response, 401, { message: 'bad key' }));
    const quiet = await runInProcess(['fees', 'NYSE'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(quiet.code).toBe(3);
    expect(quiet.stderr).toBe('mkt: the service rejected the API key (401)\nMKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.\n');
    const verbose = await runInProcess(['fees', 'NYSE', '--verbose'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(verbose.code).toBe(3);
    expect(verbose.stderr).not.toContain('    at ');
    expect(verbose.stderr).toContain('Authorization: Bearer ***');
    expect(verbose.stderr).not.toContain(KEY);
  });
});

describe('consistency of a walk', () => {
  const pagesOf = (pages: { id: string }[][], totals: number[]) =>
    recorder((request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page_number'));
      const total = totals[page] ?? (totals[0] as number);
      sendJson(response, 200, { ...emptyResultsPage(2, page), data: pages[page] ?? [], total_records: total, total_pages: Math.ceil(total / 2) });
    });

  it('drops a record a later page repeats, and fails when the distinct records fall short', async () => {
    const server = await pagesOf([[{ id: 'a' }, { id: 'b' }], [{ id: 'b' }, { id: 'c' }]], [4]);
    const run = await runInProcess(['results', '--all', '--page-size', '2', '-f', 'ndjson'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'mkt: received 3 distinct records, but the service reported 4\n'
        + 'The data changed while it was read: run the command again, or add --allow-drift to accept it.\n',
    );
  });

  it('fails when total_records changes during the walk, having written the records of the pages before it', async () => {
    const server = await pagesOf([[{ id: 'a' }, { id: 'b' }], [{ id: 'c' }, { id: 'd' }], [{ id: 'e' }, { id: 'f' }]], [6, 6, 7]);
    const run = await runInProcess(['results', '--all', '--page-size', '2', '-f', 'ndjson'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('mkt: total_records changed from 6 to 7 during the walk (page 2)\n');
    expect(run.stdout.split('\n').map((line) => line && (JSON.parse(line) as { id: string }).id)).toEqual(['a', 'b', 'c', 'd', '']);
  });

  it('stops a walk that repeats one record under a count of 2⁵³ − 1, even with --allow-drift, after 10 pages with nothing new', async () => {
    const total = 2 ** 53 - 1;
    const server = await recorder((request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page_number'));
      sendJson(response, 200, { ...emptyResultsPage(100, page), data: [{ id: 'a' }], total_records: total, total_pages: Math.ceil(total / 100) });
    });
    const run = await runInProcess(['results', '--all', '--allow-drift', '-f', 'ndjson'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 1,
      stdout: '{"id":"a"}\n',
      stderr: 'mkt: the service keeps sending the same records: 10 pages in a row held none it had not sent before (page 10)\n',
    });
    // The pages asked for ahead of the one that stopped it, and no more.
    expect(server.requests.length).toBeLessThanOrEqual(15);
  });

  it('stops at the first id longer than 256 characters, one line and exit 1, where ids of 1 MB grew a walk without bound', async () => {
    const server = await recorder((request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page_number'));
      sendJson(response, 200, { ...emptyResultsPage(1, page), data: [{ id: `${page}`.padEnd(2 ** 20, 'x') }], total_records: 80, total_pages: 80 });
    });
    const run = await runInProcess(['results', '--all', '--page-size', '1', '-f', 'ndjson'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: ${new URL(server.url).host} sent a malformed answer: data[0].id is 1048576 characters long, more than 256\n`,
    });
  });

  it('accepts drift with a warning under --allow-drift, keeping each record once', async () => {
    const server = await pagesOf([[{ id: 'a' }, { id: 'b' }], [{ id: 'b' }, { id: 'c' }]], [4]);
    const run = await runInProcess(['results', '--all', '--page-size', '2', '--allow-drift', '-f', 'json'], {
      env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).map((record: { id: string }) => record.id)).toEqual(['a', 'b', 'c']);
    expect(run.stderr).toBe(
      'warning: received 3 distinct records, but the service reported 4; continuing because of --allow-drift\n',
    );
  });
});

describe('JSON formats write the parsed records, whatever the layout of the page', () => {
  /** Two pages of results, each body laid out by `layout`; the second repeats the first's last record. */
  const servedAs = (layout: (body: object) => string) =>
    recorder((request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page_number'));
      const records = [
        [{ id: 'a', fee_amount: 1.0, fee_notes: 'caf\u00e9 ｆｕｌｌ 🙂', nested: { list: [1, null] } }, { id: 'b', fee_notes: null }],
        [{ id: 'b', fee_notes: null }, { id: 'c', fee_notes: '"quoted" \\ slash' }],
      ];
      sendText(response, 200, layout({ ...emptyResultsPage(2, page), data: records[page], total_records: 3, total_pages: 2 }));
    });
  const env = (url: string) => ({ env: { MKT_BASE_URL: url, MKT_API_KEY: KEY } });

  /** The walk as NDJSON, checked to be the same records as the JSON format's array. */
  async function ndjsonMatchingJson(url: string): Promise<string> {
    const ndjson = await runInProcess(['results', '--all', '--page-size', '2', '-f', 'ndjson'], env(url));
    expect(ndjson).toMatchObject({ code: 0, stderr: '' });
    const json = await runInProcess(['results', '--all', '--page-size', '2', '-f', 'json'], env(url));
    expect(json.stdout).toBe(`[\n  ${ndjson.stdout.trimEnd().split('\n').join(',\n  ')}\n]\n`);
    return ndjson.stdout;
  }

  /** One record, the same whatever the layout of the page it came on (docs/formats.md, "json"). */
  const COMPACT =
    '{"id":"a","fee_amount":1,"fee_notes":"café ｆｕｌｌ 🙂","nested":{"list":[1,null]}}\n'
    + '{"id":"b","fee_notes":null}\n'
    + '{"id":"c","fee_notes":"\\"quoted\\" \\\\ /slash"}\n';

  it('writes the parsed records compactly: escapes and number spellings are JSON.stringify\'s, not the service\'s', async () => {
    const server = await servedAs((body) => JSON.stringify(body).replace('café', 'caf\\u00e9').replace('"fee_amount":1', '"fee_amount":1.0').replace('\\\\ slash', '\\\\ \\/slash'));
    expect(await ndjsonMatchingJson(server.url)).toBe(COMPACT);
  });

  it('writes records the service sent on one line with spaces compactly', async () => {
    // Indented by one space, then each line break and its indent made one space: JSON has no line breaks inside strings.
    const server = await servedAs((body) => JSON.stringify(body, null, 1).replace(/\n */g, ' ').replace('\\\\ slash', '\\\\ /slash'));
    expect(await ndjsonMatchingJson(server.url)).toBe(COMPACT);
  });

  it('writes records the service spread over several lines compactly, one per line', async () => {
    const server = await servedAs((body) => JSON.stringify(body, null, 2));
    expect(await ndjsonMatchingJson(server.url)).toBe(
      '{"id":"a","fee_amount":1,"fee_notes":"café ｆｕｌｌ 🙂","nested":{"list":[1,null]}}\n'
        + '{"id":"b","fee_notes":null}\n'
        + '{"id":"c","fee_notes":"\\"quoted\\" \\\\ slash"}\n',
    );
  });

  it('writes CSV in UTF-8 whether a page spells text as UTF-8 or as \\u escapes', async () => {
    const bodies = [
      '{"data":[{"id":"a","fee_notes":"caf\\u00e9 \\ud83d\\ude80"}],"total_records":2,"page_size":1,"total_pages":2,"current_page":0}',
      '{"data":[{"id":"b","fee_notes":"émigré 🚀, ｆｕｌｌ"}],"total_records":2,"page_size":1,"total_pages":2,"current_page":1}',
    ];
    const server = await recorder((request, response) => {
      sendText(response, 200, bodies[Number(new URL(request.url, 'http://x').searchParams.get('page_number'))] as string);
    });
    const run = await runInProcess(['results', '--all', '--page-size', '1', '-f', 'csv', '--columns', 'id,fee_notes'], env(server.url));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe('id,fee_notes\r\na,café 🚀\r\nb,"émigré 🚀, ｆｕｌｌ"\r\n');
  });

  it('reads a body that starts with a byte order mark, and writes no mark', async () => {
    const server = await servedAs((body) => `\ufeff${JSON.stringify(body)}`);
    for (const format of ['ndjson', 'csv']) {
      const run = await runInProcess(['results', '--all', '--page-size', '2', '-f', format, '--columns', 'id,fee_notes'], env(server.url));
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout.startsWith('\ufeff')).toBe(false);
      expect(run.stdout).toContain('café ｆｕｌｌ 🙂');
    }
    const whole = await runInProcess(['results', '--all', '--page-size', '2', '-f', 'ndjson'], env(server.url));
    expect(whole.stdout.split('\n')[0]).toBe('{"id":"a","fee_amount":1,"fee_notes":"café ｆｕｌｌ 🙂","nested":{"list":[1,null]}}');
  });

  it('cuts records down to --columns, whatever the service sent', async () => {
    const server = await servedAs((body) => JSON.stringify(body));
    const run = await runInProcess(['results', '--all', '--page-size', '2', '-f', 'ndjson', '--columns', 'fee_notes,id'], env(server.url));
    expect(run.stdout).toBe('{"fee_notes":"café ｆｕｌｌ 🙂","id":"a"}\n{"fee_notes":null,"id":"b"}\n{"fee_notes":"\\"quoted\\" \\\\ slash","id":"c"}\n');
  });
});

describe('redirects', () => {
  it('follows a redirect on the same origin, with the key', async () => {
    const server = await recorder((request, response) => {
      if (request.url.startsWith('/old')) {
        response.writeHead(301, { location: '/api/v1/exchanges/NYSE/fees' });
        response.end();
        return;
      }
      sendJson(response, 200, { exchange: 'NYSE' });
    });
    const run = await runInProcess(['fees', 'NYSE', '-f', 'json'], { env: { MKT_BASE_URL: `${server.url}/old`, MKT_API_KEY: KEY } });
    expect(run.code).toBe(0);
    expect(server.requests.map((request) => [request.url, request.headers.authorization])).toEqual([
      ['/old/api/v1/exchanges/NYSE/fees', `Bearer ${KEY}`],
      ['/api/v1/exchanges/NYSE/fees', `Bearer ${KEY}`],
    ]);
  });

  it('never takes the key to another origin', async () => {
    const elsewhere = await recorder();
    const server = await recorder((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/api/v1/fee-schedule-results` });
      response.end();
    });
    const run = await runInProcess(['results'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: ${new URL(server.url).host} redirected to ${elsewhere.url}; mkt sends the key only to ${server.url}\n`
        + 'If the service has moved, set the new base URL with --base-url or `mkt config set base_url URL`.\n',
    });
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('broken answers', () => {
  it('retries a 200 whose body is cut short, then names the cause', async () => {
    const server = await recorder((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"success": true, "data": [', () => response.socket?.destroy());
    });
    const run = await runInProcess(['results', '--retries', '2'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^mkt: gave up after 3 tries: .*${new URL(server.url).host}.*\\n$`));
    expect(server.requests).toHaveLength(3);
  });

  it('reports an HTML error page by its status, after retries', async () => {
    const server = await recorder((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/html' });
      response.end('<html><body>Service Unavailable</body></html>');
    });
    const run = await runInProcess(['rules', 'NYSE', '--retries', '1'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: gave up after 2 tries: 503 Service Unavailable from ${new URL(server.url).host}\n`,
    });
  });

  it('honours Retry-After on a 429', async () => {
    let calls = 0;
    const server = await recorder((_request, response) => {
      calls++;
      if (calls === 1) sendJson(response, 429, { detail: 'slow down' }, { 'retry-after': '1' });
      else sendJson(response, 200, emptyResultsPage());
    });
    const run = await runInProcess(['results', '--verbose'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('retry 1/4 in 1000 ms');
  });
});
