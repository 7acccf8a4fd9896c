import { copyFileSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';
import { addVersions } from '../contract/http.js';
import { openDuckDB } from '../helpers/duckdb.js';
import { sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 16, points 5 and 6: results --offline answers as the service does; mkt sql reads the mirror.
// Enough records, 120 and the 150 of the version below, that --limit 233 and a walk's pages stop
// short of the end, page 2 of 100 is a partial last page, and each filter of QUERIES matches some.
const sandbox = useSandbox({ records: 120 });
const servers = useRecordingServers();
const mirror = join(tempDir('mkt-mirror-'), 'all.duckdb');
const env = () => ({ env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: mirror } });

beforeAll(async () => {
  // A version whose 150 records share one created_on: ties broken by id, across pages.
  await addVersions(sandbox.current, { exchange_name: 'NYSE', fee_type: 'Option', added: 150 });
  const sync = await runInProcess(['sync'], env());
  expect(sync.code).toBe(0);
});

/** A record of a hostile server's, every field there. */
function record(id: string, scraped: string, created: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const base = { exchange_name: 'X', fee_type: 'Equity', fee_category: 'Participant Fee', fee_charge_type: 'c', fee_amount: '$1', fee_action: 'Other' };
  const fields: Record<string, unknown> = { id, ...base, version_id: 'v', scraped_time: scraped, created_on: created, ...extra };
  return Object.fromEntries(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [name, fields[name] ?? (name === 'fee_notes' ? '' : null)]));
}

/** A server that answers every results query with these records, in this order, on one page. */
async function onePageServer(servers: ReturnType<typeof useRecordingServers>, records: () => Record<string, unknown>[]) {
  return servers((_request, response) => {
    const data = records();
    sendJson(response, 200, { success: true, message: '', data, total_records: data.length, page_size: 100, total_pages: 1, current_page: 0, query_time: 0.1, disable_jsonable_encoder: false });
  });
}

const QUERIES: readonly string[][] = [
  [],
  ['--page-size', '7', '--page-number', '3'],
  ['--order-dir', 'asc', '--page-size', '9', '--page-number', '5'],
  ['--order-by', 'supplier_name', '--order-dir', 'asc', '--all'],
  ['--order-by', 'fee_type', '--limit', '233'],
  ['--order-by', 'fee_category', '--order-dir', 'asc', '--page-size', '100', '--page-number', '2'],
  ['--order-by', 'scraped_time', '--all'],
  ['--fee-category', 'fee and rebates', '--fee-action', 'make,TAKE', '--all'],
  ['--fee-type', 'OPTION', '--fee-participant', 'Market Maker', '--all', '--order-dir', 'asc'],
  ['--exchange-name', 'NYSE,CBOE', '--latest-only', '--all'],
  ['--latest-only', '--all', '--order-by', 'supplier_name'],
  ['--start-date', '2024-01-01', '--end-date', '2024-06-30', '--all'],
  ['--fee-trade-type', 'Complex Order', '--fee-symbol-type', 'Penny', '--all'],
  ['--exchange-name', 'NOPE', '--all'],
  ['--page-number', '999'],
  // The walk of every record, which --parse-amounts only adds two fields to after the walk, for either source.
  ['--all', '--parse-amounts'],
];

describe('mkt results --offline', () => {
  // NDJSON keeps each value's type, which CSV does not: the formats' own writing, the same for
  // both sources, is compared once, in the test after these.
  it.each(QUERIES.map((query) => [query.join(' ') || '(no flags)', query]))('writes what the service does: %s', async (_, query) => {
    const online = await runInProcess(['results', ...query, '-f', 'ndjson'], env());
    const offline = await runInProcess(['results', '--offline', ...query, '-f', 'ndjson'], env());
    expect(online.code).toBe(0);
    expect(offline).toMatchObject({ code: 0, stderr: '' });
    expect(offline.stdout).toBe(online.stdout);
  });

  it('writes the same bytes in every format', async () => {
    for (const format of ['csv', 'json', 'table', 'parquet']) {
      // Two pages of the service, the second cut short.
      const query = ['results', '--limit', '150', '--order-by', 'fee_category', '-f', format, '-o', '-'];
      const online = await runInProcess(query, env());
      const offline = await runInProcess(['--verbose', ...query.slice(0, 1), '--offline', ...query.slice(1)], env());
      expect(offline.code).toBe(0);
      expect(offline.stdoutBytes.equals(online.stdoutBytes)).toBe(true);
    }
  });

  it('refuses a mirror of another service, exit 2, as sync and diff do', async () => {
    const other = 'http://127.0.0.1:9/elsewhere';
    const run = await runInProcess(['results', '--offline'], { env: { ...env().env, MKT_BASE_URL: other } });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `mkt: the mirror cannot answer this: it holds results of ${sandbox.current.url}, not ${other}\nName the mirror of ${other} with --mirror or MKT_MIRROR, or drop --offline to ask the service.\n`,
    });
  });

  it('says when there is no mirror, and what to do, after a mistake in the command itself', async () => {
    const none = join(tempDir('mkt-none-'), 'none.duckdb');
    const run = await runInProcess(['results', '--offline', '--mirror', none], env());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^mkt: no mirror at \S+none\.duckdb\nRun `mkt sync` to make one, or name another with --mirror or MKT_MIRROR\.\n$/);
    // The mirror is opened while the command loads; the command's own usage error still comes first.
    const directory = tempDir('mkt-out-');
    const both = await runInProcess(['results', '--offline', '--mirror', none, '-o', directory], env());
    expect({ code: both.code, stderr: both.stderr.split('\n')[0] }).toEqual({ code: 2, stderr: `mkt: cannot write to ${directory}: it is a directory` });
  });

  it('keeps timestamps spelled otherwise, and refuses a value of the wrong type (nothing committed)', async () => {
    let records = [record('a', '2024-01-02T03:04:05Z', '2024-01-02T03:04:05.5'), record('b', '2024-01-02T05:04:05.123456+02:00', '2024-01-02T03:04:06.000001')];
    const odd = await onePageServer(servers, () => records);
    const oddMirror = join(tempDir('mkt-mirror-'), 'odd.duckdb');
    const oddEnv = { env: { MKT_BASE_URL: odd.url, MKT_API_KEY: 'k', MKT_MIRROR: oddMirror } };
    expect((await runInProcess(['sync'], oddEnv)).code).toBe(0);
    const offline = await runInProcess(['results', '--offline', '-f', 'ndjson', '--order-dir', 'asc'], oddEnv);
    expect(offline.stdout).toBe(records.map((item) => `${JSON.stringify(item)}\n`).join(''));

    records = [...records, record('c', '2024-01-03T00:00:00.000000+00:00', '2024-01-03T00:00:00.000000', { fee_notes: 5 })];
    const refused = await runInProcess(['sync'], oddEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`mkt: 127.0.0.1:${new URL(odd.url).port} sent a malformed answer: record c has a number as fee_notes, not text\n`);
    const after = await runInProcess(['sql', 'SELECT count(*) AS n FROM results', '-f', 'csv'], oddEnv);
    expect(after.stdout).toBe('n\r\n2\r\n');
  });

  it('reads back every character of a text, and each record its own timestamp spelling', async () => {
    const texts = ['', 'a"b\\c', 'nl\nr\rt\t', '\u0000\u0001\u001f\u007f', '\u2028\u2029', 'é漢字😀', '{"json":1}', 'null', '\\u0041', 'x'.repeat(70_000)];
    // One instant for all, spelled otherwise by record 5 only: the records after it keep the usual spelling.
    const records = texts.map((text, index) => ({
      ...Object.fromEntries(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [name, null])),
      id: `id-${index}`,
      exchange_name: 'X',
      fee_type: 'Equity',
      fee_notes: text,
      fee_amount: index % 2 === 0 ? null : text,
      version_id: 'v',
      scraped_time: index === 5 ? '2024-01-02T04:04:05.5+01:00' : '2024-01-02T03:04:05.500000+00:00',
      created_on: index === 5 ? '2024-01-02T03:04:05.5' : '2024-01-02T03:04:05.500000',
    }));
    const server = await onePageServer(servers, () => records);
    const textEnv = { env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k', MKT_MIRROR: join(tempDir('mkt-mirror-'), 'texts.duckdb') } };
    expect((await runInProcess(['sync'], textEnv)).code).toBe(0);
    const offline = await runInProcess(['results', '--offline', '-f', 'ndjson', '--order-dir', 'asc'], textEnv);
    expect(offline).toMatchObject({ code: 0, stderr: '' });
    expect(offline.stdout).toBe(records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  });

  it("reads every record in the service's order, whatever order the mirror stores them in or an earlier mkt noted", async () => {
    // The service's order is not the mirror's: a walk stores records as the service sent them, new
    // ones come after, DuckDB orders ids by UTF-8 bytes (not JavaScript's code units), and one new record is older than the newest.
    let records = [
      record('b', '2024-01-02T00:00:00Z', '2024-01-02T00:00:00.000000'),
      record('c', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000000'),
      record('a', '2024-01-02T00:00:00Z', '2024-01-02T00:00:00.000000'),
      record('d', '2024-01-03T00:00:00Z', '2024-01-03T00:00:00.000000'),
    ];
    const server = await onePageServer(servers, () => records);
    const placedMirror = join(tempDir('mkt-mirror-'), 'placed.duckdb');
    const placedEnv = { env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k', MKT_MIRROR: placedMirror } };
    const newestFirst = () =>
      [...records].sort((x, y) => String(y.created_on).localeCompare(String(x.created_on)) || Buffer.compare(Buffer.from(String(y.id)), Buffer.from(String(x.id))));
    const lines = (items: Record<string, unknown>[]) => items.map((item) => `${JSON.stringify(item)}\n`).join('');
    const expectOffline = async () => {
      const newest = await runInProcess(['results', '--offline', '--all', '-f', 'ndjson'], placedEnv);
      expect(newest).toMatchObject({ code: 0, stderr: '', stdout: lines(newestFirst()) });
      const oldest = await runInProcess(['results', '--offline', '--page-size', '2', '--page-number', '1', '--order-dir', 'asc', '-f', 'ndjson'], placedEnv);
      expect(oldest.stdout).toBe(lines(newestFirst().reverse().slice(2, 4)));
    };

    expect((await runInProcess(['sync'], placedEnv)).code).toBe(0);
    await expectOffline();
    // One later sync brings the three new records: stored after the others, in the service's order.
    records = [
      ...records,
      record('e\u{1F600}', '2024-01-04T00:00:00Z', '2024-01-04T00:00:00.000000'),
      record('e\uFF5E', '2024-01-04T00:00:00Z', '2024-01-04T00:00:00.000000'),
      record('f', '2024-01-02T12:00:00Z', '2024-01-02T12:00:00.000000'),
    ];
    const incremental = await runInProcess(['sync', '-f', 'json'], placedEnv);
    expect(JSON.parse(incremental.stdout)).toMatchObject({ new_records: 3, full_walk: false });
    await expectOffline();

    // As an earlier mkt left it: results stored newest first, and noted as stored in order
    // (mkt_mirror.results_in_order), which that mkt read pages by.
    const earlier = await openDuckDB();
    await earlier.rows(`ATTACH '${placedMirror}' AS placed;
      CREATE TABLE placed.newest_first AS SELECT * FROM placed.results ORDER BY created_on DESC, id DESC;
      DROP TABLE placed.results; ALTER TABLE placed.newest_first RENAME TO results;
      ALTER TABLE placed.mkt_mirror ADD COLUMN IF NOT EXISTS results_in_order BIGINT; UPDATE placed.mkt_mirror SET results_in_order = 7`);
    earlier.close();
    await expectOffline();
    // Its next sync takes the note away: an earlier mkt would trust it over records this one changed.
    records = [...records, record('g', '2024-01-05T00:00:00Z', '2024-01-05T00:00:00.000000')];
    expect(JSON.parse((await runInProcess(['sync', '-f', 'json'], placedEnv)).stdout)).toMatchObject({ new_records: 1, full_walk: false });
    const header = await runInProcess(['sql', "SELECT string_agg(column_name, ' ' ORDER BY column_index) AS names FROM duckdb_columns() WHERE table_name = 'mkt_mirror'", '-f', 'csv'], placedEnv);
    expect(header.stdout).toBe('names\r\nlayout service filters created_at shape\r\n');
    await expectOffline();
  });
});

describe('mkt sql', () => {
  it('writes the answer in any format, timestamps as the service spells them', async () => {
    const sql = "SELECT exchange_name, count(*) AS items, max(created_on) AS newest, max(scraped_time) AS scraped FROM results WHERE exchange_name = 'NYSE' GROUP BY ALL";
    const json = await runInProcess(['sql', sql, '-f', 'json'], env());
    expect(json.code).toBe(0);
    const [row] = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(row).toMatchObject({ exchange_name: 'NYSE' });
    expect(row?.items).toBeTypeOf('number');
    expect(row?.newest).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect(row?.scraped).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    const csv = await runInProcess(['sql', sql, '-f', 'csv'], env());
    expect(csv.stdout).toBe(`exchange_name,items,newest,scraped\r\nNYSE,${row?.items},${row?.newest},${row?.scraped}\r\n`);
  });

  it('reads results_with_values, the amounts parsed as --parse-amounts parses them', async () => {
    const viaSql = await runInProcess(['sql', 'SELECT id, fee_amount, fee_amount_value, fee_amount_unit FROM results_with_values ORDER BY created_on DESC, id DESC LIMIT 20', '-f', 'ndjson'], env());
    const online = await runInProcess(['results', '--parse-amounts', '--columns', 'id,fee_amount,fee_amount_value,fee_amount_unit', '-f', 'ndjson'], env());
    expect(viaSql.stdout).toBe(online.stdout);
  });

  it('is exit 2 with DuckDB\'s message for a bad query, and cannot write', async () => {
    const count = () => runInProcess(['sql', 'SELECT count(*) AS n FROM results', '-f', 'csv'], env());
    const before = await count();
    expect(before.stdout).toMatch(/^n\r\n\d+\r\n$/);
    const bad = await runInProcess(['sql', 'SELEC 1'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('mkt: Parser Error: syntax error at or near "SELEC"');
    const write = await runInProcess(['sql', 'DELETE FROM results'], env());
    expect(write.code).toBe(2);
    expect(write.stderr.split('\n')[0]).toContain('read-only');
    expect((await count()).stdout).toBe(before.stdout);
  });

  it('is exit 2 for an error deep in the answer, and writes nothing: not the rows before it', async () => {
    const output = join(tempDir('mkt-sql-'), 'answer.csv');
    // Streamed, the answer ended at the failing row as if complete: 1,500,001 rows and exit 0.
    const query = "SELECT i, (CASE WHEN i > 1500000 THEN 'x' ELSE '1' END)::INTEGER AS n FROM range(2000000) t(i)";
    const failed = await runInProcess(['sql', query, '-f', 'csv', '-o', output], env());
    expect(failed).toMatchObject({ code: 2, stdout: '' });
    expect(failed.stderr.split('\n')[0]).toBe("mkt: Conversion Error: Could not convert string 'x' to INT32");
    expect(existsSync(output)).toBe(false);
  });

  it('says a damaged mirror cannot be read, exit 1, where the query is not at fault', async () => {
    const damaged = join(tempDir('mkt-damaged-'), 'damaged.duckdb');
    copyFileSync(mirror, damaged);
    const bytes = readFileSync(damaged);
    bytes.fill(0xff, bytes.length / 2, bytes.length / 2 + 300_000);
    writeFileSync(damaged, bytes);
    // Where the damage lands decides whether DuckDB meets it opening the file or reading it.
    const corrupt = /^mkt: cannot (open|read) the mirror \S+damaged\.duckdb: IO Error: Corrupt database file: .*\n$/;
    for (const command of [['results', '--offline', '--all', '-f', 'ndjson'], ['sql', 'SELECT max(fee_notes) FROM results']]) {
      const run = await runInProcess([...command, '--mirror', damaged], env());
      expect({ command, code: run.code, stdout: run.stdout }).toEqual({ command, code: 1, stdout: '' });
      expect(run.stderr).toMatch(corrupt);
    }
  });

  it('refuses -o naming the mirror it reads, or a link to it, and leaves the mirror whole', async () => {
    const link = join(tempDir('mkt-link-'), 'link.duckdb');
    symlinkSync(mirror, link);
    const before = readFileSync(mirror);
    for (const target of [mirror, link]) {
      for (const args of [['sql', 'SELECT 1 AS n'], ['results', '--offline'], ['diff', 'NYSE', 'Option']]) {
        const run = await runInProcess([...args, '-f', 'csv', '-o', target], env());
        expect({ args, target, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
          args,
          target,
          code: 2,
          stdout: '',
          stderr: `mkt: -o names the mirror ${mirror}, which the answer would replace\nWrite the answer to another file.\n`,
        });
      }
    }
    expect(readFileSync(mirror).equals(before)).toBe(true);
  });

  it('says on a terminal that an answer has no rows, and nothing for a statement that is no query (SET)', async () => {
    const terminal = { isTTY: true, columns: 80 };
    const empty = await runInProcess(['sql', 'SELECT id FROM results WHERE false', '-f', 'csv'], { ...env(), stderr: terminal });
    expect(empty).toMatchObject({ code: 0, stdout: 'id\r\n', stderr: 'the answer has no rows\n' });
    const set = await runInProcess(['sql', 'SET VARIABLE answer = 42', '-f', 'csv'], { ...env(), stderr: terminal });
    expect(set).toMatchObject({ code: 0, stderr: '' });
    const piped = await runInProcess(['sql', 'SELECT id FROM results WHERE false', '-f', 'csv'], env());
    expect(piped).toMatchObject({ code: 0, stdout: 'id\r\n', stderr: '' });
    const quiet = await runInProcess(['sql', 'SELECT id FROM results WHERE false', '-f', 'csv', '--quiet'], { ...env(), stderr: terminal });
    expect(quiet).toMatchObject({ code: 0, stdout: 'id\r\n', stderr: '' });
  });

  it('reads the mirror alone: writing its files or any other, ATTACH, INSTALL, LOAD, SET and reading elsewhere are exit 2 with a message', async () => {
    const home = tempDir('mkt-home-');
    const elsewhere = join(tempDir('mkt-sql-'), 'other.csv');
    writeFileSync(elsewhere, 'a\n1\n');
    const before = readFileSync(mirror);
    const refused = (file: string) => `mkt: Permission Error: Cannot access file "${file}" - file system operations are disabled by configuration`;
    const writesNoFile = (what: string) => `mkt: mkt sql writes no file: ${what} is refused`;
    const locked = (option: string) => `mkt: Invalid Input Error: Cannot change configuration option "${option}" - the configuration has been locked`;
    const cases: [string, string | RegExp][] = [
      // Each destroyed the mirror, or left its log unreadable: DuckDB lets a read-only connection write the mirror's own files.
      [`COPY (SELECT 1) TO '${mirror}' (FORMAT csv, USE_TMP_FILE false)`, writesNoFile('COPY')],
      [`COPY (SELECT 1) TO '${mirror}.wal' (FORMAT csv)`, writesNoFile('COPY')],
      [`PREPARE p AS COPY (SELECT 1) TO '${mirror}' (FORMAT csv, USE_TMP_FILE false); EXECUTE p`, writesNoFile('PREPARE')],
      [`EXPLAIN ANALYZE COPY (SELECT 1) TO '${mirror}' (FORMAT csv, USE_TMP_FILE false)`, writesNoFile('EXPLAIN ANALYZE')],
      [`SET log_query_path = '${mirror}.wal'`, locked('log_query_path')],
      [`CALL enable_logging(storage = 'file', storage_path = '${mirror}')`, writesNoFile('enable_logging')],
      // Elsewhere, and the network.
      [`COPY (SELECT 1) TO '${elsewhere}.out' (FORMAT csv)`, refused(`${elsewhere}.out`)],
      [`EXPORT DATABASE '${mirror}.export'`, refused(`${mirror}.export/mkt_amounts.csv`)],
      [`ATTACH '${elsewhere}.duckdb' AS other`, refused(`${elsewhere}.duckdb`)],
      // In DuckDB's own directory for the mirror, which it lets be written: the file's failure, not the mirror's.
      [`ATTACH '${mirror}.tmp/missing/other.duckdb' AS other (READ_WRITE)`, `mkt: IO Error: Cannot open file "${mirror}.tmp/missing/other.duckdb": No such file or directory`],
      [`SELECT * FROM read_csv('${elsewhere}')`, refused(elsewhere)],
      ["SELECT * FROM read_csv('https://data.example.invalid/fees.csv')", refused('https://data.example.invalid/fees.csv')],
      ['INSTALL httpfs', new RegExp(`^mkt: Permission Error: Cannot access directory "${home}/\\.duckdb/extensions/[^"]+" - file system operations are disabled by configuration$`)],
      ['LOAD httpfs', 'mkt: Permission Error: Loading external extensions is disabled through configuration'],
      ['SET enable_external_access = true', locked('enable_external_access')],
      ['SET threads = 1', locked('threads')],
    ];
    const endings = [];
    for (const [query] of cases) {
      // DuckDB finds its home (~/.duckdb, where INSTALL puts extensions) in the process's own HOME,
      // which is the test's for this run alone.
      const processHome = process.env.HOME;
      process.env.HOME = home;
      try {
        const run = await runInProcess(['sql', query], { env: { ...env().env, HOME: home } });
        endings.push([query, { code: run.code, stdout: run.stdout, stderr: run.stderr.split('\n')[0] }]);
      } finally {
        process.env.HOME = processHome;
      }
    }
    expect(endings).toEqual(cases.map(([query, stderr]) => [query, { code: 2, stdout: '', stderr: typeof stderr === 'string' ? stderr : expect.stringMatching(stderr) }]));
    expect(readFileSync(mirror).equals(before)).toBe(true);
    expect([existsSync(`${mirror}.wal`), existsSync(`${mirror}.export`), existsSync(`${elsewhere}.out`), existsSync(join(home, '.duckdb'))]).toEqual([false, false, false, false]);
  }, 120_000);

  it('keeps Infinity, -Infinity and NaN in every format: as text in JSON, which has no number for them', async () => {
    const query = "SELECT 'inf'::DOUBLE AS up, '-inf'::FLOAT AS down, 'nan'::DOUBLE AS nan, 1.5::DOUBLE AS finite";
    const text = async (format: string) => (await runInProcess(['sql', query, '-f', format], env())).stdout;
    expect(await text('json')).toBe('[\n  {"up":"Infinity","down":"-Infinity","nan":"NaN","finite":1.5}\n]\n');
    expect(await text('ndjson')).toBe('{"up":"Infinity","down":"-Infinity","nan":"NaN","finite":1.5}\n');
    expect(await text('csv')).toBe('up,down,nan,finite\r\nInfinity,-Infinity,NaN,1.5\r\n');
    const parquet = join(tempDir('mkt-sql-'), 'answer.parquet');
    expect((await runInProcess(['sql', query, '-o', parquet], env())).code).toBe(0);
    const duck = await openDuckDB();
    try {
      expect(await duck.rows(`SELECT isinf(up) AND up > 0 AS up, isinf(down) AND down < 0 AS down, isnan(nan) AS nan, finite FROM '${parquet}'`)).toEqual([
        { up: true, down: true, nan: true, finite: 1.5 },
      ]);
    } finally {
      duck.close();
    }
  });

  it('is exit 2 for a query with no statement, and writes the last answer of several', async () => {
    for (const query of ['', '  \n', ';', '-- only a comment']) {
      const empty = await runInProcess(['sql', '--', query], env());
      expect({ query, code: empty.code, stdout: empty.stdout, first: empty.stderr.split('\n')[0] }).toEqual({
        query,
        code: 2,
        stdout: '',
        first: 'mkt: the query holds no SQL statement',
      });
    }
    const several = await runInProcess(['sql', 'CREATE TEMP TABLE t AS SELECT 42 AS v; SELECT v + 1 AS w FROM t', '-f', 'csv'], env());
    expect(several).toMatchObject({ code: 0, stdout: 'w\r\n43\r\n', stderr: '' });
  });
});
