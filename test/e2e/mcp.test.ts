import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { spawnMcp, startMcpInProcess } from '../helpers/mcp-client.js';
import { memoryDeps, runInProcess } from '../helpers/run-in-process.js';
import { run } from '../../src/main.js';
import type { MktRun } from '../helpers/run-mkt.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 40, point 1: `mkt mcp`, through the SDK's own client over stdio, as an assistant starts it.

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** One spawned `mkt … mcp` for the enclosing describe block, with the SDK's client on its pipes. */
function useServer(args: readonly string[]): { client: Client; stderr: () => string; close: () => Promise<MktRun> } {
  let server: Awaited<ReturnType<typeof spawnMcp>> | undefined;
  beforeAll(async () => {
    server = await spawnMcp(args);
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get client() {
      return server!.client;
    },
    stderr: () => server?.stderr() ?? '',
    close: () => server!.close(),
  };
}

/**
 * One `mkt … mcp` run in this process for the enclosing describe block, the SDK's client on its
 * stdin and stdout: for what the tools answer, where the spawned server of the first block
 * already shows the protocol over a child's pipes.
 */
function useInProcessServer(args: readonly string[], env: () => Record<string, string | undefined>): { client: Client; stderr: () => string } {
  let server: Awaited<ReturnType<typeof startMcpInProcess>> | undefined;
  beforeAll(async () => {
    server = await startMcpInProcess(args, { env: env(), maxRetryDelayMs: 0 });
  });
  afterAll(async () => {
    expect(await server?.close()).toBe(0);
  });
  return {
    get client() {
      return server!.client;
    },
    stderr: () => server?.stderr() ?? '',
  };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** A successful answer's data, which its text block repeats. */
function dataOf(result: ToolResult): Record<string, unknown> {
  expect(result.isError).toBeFalsy();
  expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

/** A failed answer's error, from its JSON text. */
function errorOf(result: ToolResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  return (JSON.parse(result.content[0]?.text ?? '') as { error: Record<string, unknown> }).error;
}

type Page = { records: { id: string }[]; total_records: number; next_cursor?: string };

/** Every record of a search, page after page by its cursor, and how many answers it took. */
async function searchAll(client: Client, args: Record<string, unknown>): Promise<{ ids: string[]; answers: number; longest: number }> {
  const ids: string[] = [];
  let answers = 0;
  let longest = 0;
  let cursor: string | undefined;
  do {
    const result = await call(client, 'search_fee_results', cursor ? { cursor } : args);
    longest = Math.max(longest, JSON.stringify(result).length);
    const page = dataOf(result) as Page;
    ids.push(...page.records.map((record) => record.id));
    cursor = page.next_cursor;
    answers++;
  } while (cursor !== undefined && answers < 50);
  return { ids, answers, longest };
}

describe('mkt --sandbox mcp', () => {
  const server = useServer(['--sandbox', 'mcp']);

  it('lists at most 8 tools, each read-only with a title, a description and input and output schemas', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_exchanges', 'get_filter_values', 'search_fee_results', 'get_fee_schedule',
      'get_rules_and_order_types', 'compare_venues', 'diff_versions', 'query_mirror',
    ]);
    for (const tool of tools) {
      expect(tool.title).toMatch(/^\S/);
      expect(tool.description?.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const search = tools.find((tool) => tool.name === 'search_fee_results');
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['exchange_name', 'fee_type', 'limit', 'cursor', 'detail', 'id']));
    // The key is never an argument.
    expect(JSON.stringify(tools)).not.toMatch(/api_key|apikey|MKT_API_KEY/i);
  });

  it('answers each data tool with its data', async () => {
    const exchanges = dataOf(await call(server.client, 'list_exchanges')).exchanges as { exchange: string; fee_types: string[] }[];
    expect(exchanges.length).toBeGreaterThan(40);
    expect(exchanges[0]).toEqual({ exchange: 'NYSE', name: 'New York Stock Exchange', fee_types: ['Equity', 'Option'], records: 61 });

    const filters = dataOf(await call(server.client, 'get_filter_values')).filters as { parameter: string; values: string[] }[];
    expect(filters.find((filter) => filter.parameter === 'fee_type')?.values).toEqual(['Equity', 'Option']);

    const schedule = dataOf(await call(server.client, 'get_fee_schedule', { exchange: 'NYSE', volume: '50M' })).schedule as Record<string, unknown>;
    expect(schedule).toMatchObject({ exchange: 'NYSE', at_volume: { volume: 50_000_000, tier: 'tier_1', maker: -0.0038, taker: 0.0027 } });

    const rules = dataOf(await call(server.client, 'get_rules_and_order_types', { exchange: 'IEX' }));
    expect(rules).toMatchObject({ rules: { exchange: 'IEX', rules: { lot_size: 100 } }, order_types: { exchange: 'IEX' } });
    expect((rules.order_types as { order_types: unknown[] }).order_types).toHaveLength(5);

    const venues = dataOf(await call(server.client, 'compare_venues', { exchanges: ['NYSE', 'IEX', 'NYSX'], volume: 50_000_000, make_share: 0.3 })).venues as Record<string, unknown>[];
    expect(venues.map(({ exchange, rank, error }) => ({ exchange, rank, error }))).toEqual([
      { exchange: 'IEX', rank: 1, error: null },
      { exchange: 'NYSE', rank: null, error: null },
      { exchange: 'NYSX', rank: null, error: 'unknown exchange (404)' },
    ]);

    const differences = dataOf(await call(server.client, 'diff_versions', { exchange: 'NYSE', fee_type: 'equity' })).differences as { change: string }[];
    expect(differences.length).toBeGreaterThan(0);
    expect(differences.every((difference) => ['added', 'removed', 'changed'].includes(difference.change))).toBe(true);
  });

  it('searches with the filters, concise by default, every field with detail full', async () => {
    const concise = dataOf(await call(server.client, 'search_fee_results', { exchange_name: ['NYSE'], fee_type: ['equity'], limit: 3 })) as Page;
    expect(concise.records).toHaveLength(3);
    expect(Object.keys(concise.records[0] as object)).toEqual([
      'id', 'exchange_name', 'fee_type', 'fee_category', 'fee_charge_type', 'fee_action', 'fee_participant', 'fee_amount',
      'fee_symbol_classification', 'fee_symbol_type', 'fee_trade_type', 'fee_monthly_volume', 'version_id', 'scraped_time',
    ]);
    expect(concise.records.every((record) => (record as unknown as { exchange_name: string }).exchange_name === 'NYSE')).toBe(true);
    const full = dataOf(await call(server.client, 'search_fee_results', { exchange_name: ['NYSE'], fee_type: ['equity'], limit: 3, detail: 'full' })) as Page;
    expect(full.records[0]).toEqual({ ...concise.records[0], ...full.records[0] });
    expect(Object.keys(full.records[0] as object)).toHaveLength(26);
    // A service of the interface's shape has no record endpoint: the mirror, and there is none.
    expect(errorOf(await call(server.client, 'search_fee_results', { id: concise.records[0]?.id }))).toMatchObject({ code: 'not_found' });
  });

  it('pages a search with its cursor: every record once, in order, each answer under 100,000 characters', async () => {
    const whole = dataOf(await call(server.client, 'search_fee_results', { exchange_name: ['NYSE'], limit: 100 })) as Page;
    expect(whole.total_records).toBe(61);
    expect(whole.next_cursor).toBeUndefined();
    const expected = whole.records.map((record) => record.id);

    const paged = await searchAll(server.client, { exchange_name: ['NYSE'], limit: 7 });
    expect(paged).toMatchObject({ ids: expected, answers: 9 });
    // Full records of a page of 100 are more than an answer holds: cut at a record, and the rest follows.
    const full = await searchAll(server.client, { exchange_name: ['NYSE'], limit: 100, detail: 'full' });
    expect(full.ids).toEqual(expected);
    expect(full.answers).toBeGreaterThan(1);
    expect(full.longest).toBeLessThan(100_000);
  });

  it('answers a failure as isError with its stable code and hint, and goes on serving', async () => {
    expect(errorOf(await call(server.client, 'get_fee_schedule', { exchange: 'NYSX' }))).toEqual({
      code: 'not_found',
      message: 'unknown exchange NYSX (404)',
      hint: 'Check the identifier: `mkt exchanges` lists the exchanges your key reaches.',
      http_status: 404,
      retryable: false,
    });
    // The checks of `mkt results`, in the words of the tool's arguments.
    expect(errorOf(await call(server.client, 'search_fee_results', { fee_type: ['Opton'] }))).toEqual({
      code: 'usage',
      message: 'fee_type: unknown value "Opton"; did you mean Option?',
      hint: 'Allowed values: Equity, Option.',
      retryable: false,
    });
    expect(errorOf(await call(server.client, 'search_fee_results', { start_date: '2025-02-30' }))).toMatchObject({ message: 'start_date: "2025-02-30" is not a date' });
    expect(errorOf(await call(server.client, 'search_fee_results', { cursor: 'not-a-cursor' }))).toMatchObject({ code: 'usage', message: 'the cursor is not one this tool gave' });
    // A cursor stands for its search: given again with the same arguments it goes on, with others it is refused.
    const first = dataOf(await call(server.client, 'search_fee_results', { exchange_name: ['IEX'], limit: 2 })) as Page;
    const again = dataOf(await call(server.client, 'search_fee_results', { exchange_name: ['IEX'], limit: 2, cursor: first.next_cursor })) as Page;
    expect(again.records).toHaveLength(2);
    expect(again.records[0]?.id).not.toBe(first.records[0]?.id);
    expect(errorOf(await call(server.client, 'search_fee_results', { exchange_name: ['NYSE'], cursor: first.next_cursor }))).toMatchObject({
      code: 'usage',
      message: 'the cursor goes on another call than these arguments',
    });
    expect(errorOf(await call(server.client, 'get_fee_schedule', { exchange: 'NYSE', volume: 'lots' }))).toMatchObject({ code: 'usage', message: 'volume must be a whole monthly volume, not "lots"' });
    expect(dataOf(await call(server.client, 'get_fee_schedule', { exchange: 'IEX' })).schedule).toMatchObject({ exchange: 'IEX' });
    // Logs go to stderr: compare's warning of the venue it could not price.
    expect(server.stderr()).toBe('warning: NYSX: unknown exchange NYSX (404)\n');
  });

  it('writes protocol messages only on its standard output, one a line, and exits 0 once its input ends', async () => {
    const exited = await server.close();
    expect({ code: exited.code, signal: exited.signal, stderr: exited.stderr }).toEqual({ code: 0, signal: null, stderr: 'warning: NYSX: unknown exchange NYSX (404)\n' });
    const lines = exited.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) expect(JSON.parse(line), line.slice(0, 80)).toMatchObject({ jsonrpc: '2.0', id: expect.any(Number) });
  });
});

describe('mkt mcp with the key from the environment, when the service stops', () => {
  let sandbox: RunningSandbox;
  const dataDir = tempDir('mkt-data-');
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, records: 40 });
    const env = { MKT_BASE_URL: sandbox.url, MKT_API_KEY: sandbox.keys.api_key, MKT_DATA_DIR: dataDir };
    expect((await runInProcess(['sync', '-q'], { env })).code).toBe(0);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  const server = useInProcessServer(['--retries', '0', 'mcp'], () => ({ MKT_BASE_URL: sandbox.url, MKT_API_KEY: sandbox.keys.api_key, MKT_DATA_DIR: dataDir }));

  it('queries the mirror read-only, at most 1,000 rows with a note when cut', async () => {
    const counted = dataOf(await call(server.client, 'query_mirror', { sql: 'SELECT count(*) AS n FROM results' }));
    expect(counted).toEqual({ rows: [{ n: 40 }], row_count: 1 });
    const cut = dataOf(await call(server.client, 'query_mirror', { sql: 'SELECT range AS i FROM range(1500)' }));
    expect(cut.row_count).toBe(1000);
    expect((cut.rows as { i: number }[]).at(-1)).toEqual({ i: 999 });
    expect(cut.notes).toEqual(['the answer is cut after 1000 rows: a result holds at most 1000 rows and 45,000 characters; aggregate, or page with LIMIT and OFFSET']);
    expect(errorOf(await call(server.client, 'query_mirror', { sql: "COPY results TO 'out.csv'" }))).toMatchObject({ code: 'usage', message: expect.stringContaining('Cannot access file "out.csv"') });
  });

  it('answers network when the service has stopped, and still answers from the mirror; the key is in no answer and no log', async () => {
    const key = sandbox.keys.api_key;
    const searched = await call(server.client, 'search_fee_results', { limit: 2 });
    expect(dataOf(searched).total_records).toBe(40);
    await sandbox.close();
    const failed = errorOf(await call(server.client, 'list_exchanges'));
    expect(failed).toMatchObject({ code: 'network', retryable: true });
    expect(dataOf(await call(server.client, 'query_mirror', { sql: 'SELECT count(*) AS n FROM results' })).rows).toEqual([{ n: 40 }]);
    expect(JSON.stringify([searched, failed]) + server.stderr()).not.toContain(key);
  });
});

describe('mkt --sandbox --sandbox-shape 2026 mcp, its standard output read whole', () => {
  // In-process: the spawned server of the first block shows what only a process shows of stdout and its exit.
  it('writes protocol messages only, one a line, and offers the 2026 records by id with their citations', async () => {
    const first = await runInProcess(['--sandbox', '--sandbox-shape', '2026', 'results', '--exchange-name', 'nyse', '--limit', '1', '-f', 'json']);
    const id = (JSON.parse(first.stdout) as { record_id: string }[])[0]?.record_id;
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_fee_results', arguments: { id, detail: 'full' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_fee_schedule', arguments: { exchange: 'nysx' } } },
    ];
    const run = await runInProcess(['--sandbox', '--sandbox-shape', '2026', 'mcp'], { input: messages.map((message) => `${JSON.stringify(message)}\n`).join('') });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    expect(lines.pop()).toBe('');
    const answers = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result: ToolResult }).sort((a, b) => a.id - b.id);
    expect(answers.map((answer) => ({ jsonrpc: answer.jsonrpc, id: answer.id }))).toEqual([1, 2, 3].map((number) => ({ jsonrpc: '2.0', id: number })));
    const record = (answers[1]?.result.structuredContent as { records: Record<string, unknown>[] }).records[0] as Record<string, unknown>;
    expect(record).toMatchObject({ record_id: id, exchange_name: 'nyse', source_document: expect.any(String), source_link: expect.stringMatching(/^https:/) });
    expect(answers[2]?.result.isError).toBe(true);
  });
});

describe('mkt mcp without a key', () => {
  it('starts, and answers each call with the auth error and its hint', async () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_exchanges', arguments: {} } },
    ];
    const run = await runInProcess(['mcp'], { input: messages.map((message) => `${JSON.stringify(message)}\n`).join(''), env: { MKT_BASE_URL: 'http://127.0.0.1:9' } });
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout.split('\n')[1] ?? '') as { result: ToolResult };
    expect(answer.result.isError).toBe(true);
    expect(JSON.parse(answer.result.content[0]?.text ?? '')).toEqual({
      error: { code: 'auth', message: 'no API key for profile "default"', hint: 'Run `mkt auth login`, or set MKT_API_KEY. To try mkt without a key, add --sandbox.', retryable: false },
    });
  });
});

describe('mkt mcp against a service whose answers are too large for a result', () => {
  const key = 'hostile-test-key-0123456789';
  const record = (id: string, notes: number) => ({ id, exchange_name: 'NYSE', fee_type: 'Equity', fee_amount: '$0.0030', fee_notes: 'n'.repeat(notes) });
  let hostile: Server;
  let url = '';
  beforeAll(async () => {
    hostile = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      response.setHeader('content-type', 'application/json');
      if (path === '/api/v1/fee-schedule-results/filters') {
        // Thousands of plain values, and the key echoed among them.
        response.end(JSON.stringify({ data: { fee_types: [key, ...Array.from({ length: 6000 }, (_, index) => `Value ${index}`)] } }));
      } else if (path === '/api/v1/fee-schedule-results') {
        // The second record alone is larger than a result may be; the first and third are small.
        const data = [record('a', 30_000), record('b', 60_000), record('c', 10), record('d', 10)];
        response.end(JSON.stringify({ total_records: 4, page_size: 4, total_pages: 1, current_page: 0, data }));
      } else {
        response.statusCode = 404;
        response.end('{}');
      }
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => hostile?.close(resolve));
  });
  const server = useInProcessServer(['--retries', '0', 'mcp'], () => ({ MKT_BASE_URL: url, MKT_API_KEY: key }));

  it('cuts a page at a record, names the record too large for any result, and loses none of the others', async () => {
    const answers: ToolResult[] = [];
    let cursor: string | undefined;
    do {
      const result = await call(server.client, 'search_fee_results', cursor ? { cursor } : { limit: 4, detail: 'full' });
      answers.push(result);
      cursor = (dataOf(result) as Page).next_cursor;
    } while (cursor !== undefined && answers.length < 10);
    const pages = answers.map((result) => result.structuredContent as Page & { notes?: string[] });
    expect(pages.map((page) => page.records.map((found) => found.id))).toEqual([['a'], [], ['c', 'd']]);
    expect(pages[1]?.notes).toEqual(['record b is left out: alone it is larger than an answer may be; detail concise has it, and mkt results get b -f json whole']);
    expect(Math.max(...answers.map((result) => JSON.stringify(result).length))).toBeLessThan(100_000);
  });

  it('answers malformed_answer for an answer too large to hold whole, and goes on', async () => {
    const result = await call(server.client, 'get_filter_values');
    expect(errorOf(result)).toEqual({ code: 'malformed_answer', message: 'the service sent more than a tool result may hold', hint: 'Ask for less: fewer exchanges, or a narrower search.', retryable: false });
    expect((dataOf(await call(server.client, 'search_fee_results', { limit: 1 })) as Page).records).toEqual([{ id: 'a', exchange_name: 'NYSE', fee_type: 'Equity', fee_amount: '$0.0030' }]);
    expect(JSON.stringify(result) + server.stderr()).not.toContain(key);
  });
});

describe('mkt mcp typed at a terminal', () => {
  it('says on stderr what it waits for, and ends with its input', async () => {
    const deps = memoryDeps({ stderr: { isTTY: true, columns: 80 } });
    Object.assign(deps.stdin, { isTTY: true });
    expect(await run(['--sandbox', 'mcp'], deps)).toBe(0);
    expect(deps.stdout.text()).toBe('');
    expect(deps.stderr.text()).toBe('mkt mcp serves an MCP client on stdin and stdout (docs/mcp.md); Ctrl-C ends it.\n');
  });
});
