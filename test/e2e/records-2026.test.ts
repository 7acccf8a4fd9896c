import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_2026_FIELDS, FEE_SCHEDULE_RESULT_FIELD_NAMES, FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS } from '../../src/api/fields.js';
import type { FeeScheduleResult2026 } from '../../src/api/types.js';
import { openDuckDB } from '../helpers/duckdb.js';
import { record2026, serve2026Records } from '../helpers/records-2026.js';
import { copyMirror } from '../helpers/mirror-copy.js';
import { startRecordingServer, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 38, point 1 ("The record's id") and point 2's columns: records of the 2026 shape, which
// go by record_id and carry no created_on, downstream of the page check.
const startServer = useRecordingServers();

const HEADER_2026 = FEE_SCHEDULE_RESULT_2026_FIELDS.map((field) => field.name).join(',');
const lines = (items: readonly object[]) => items.map((item) => `${JSON.stringify(item)}\n`).join('');
/** Line item `n` in the interface document's shape and order: `id`, `created_on`, `fee_reference`, and no citation. */
function interfaceRecord(n: number): FeeScheduleResult2026 {
  const source: Record<string, unknown> = { ...record2026(n), id: `i-${n}`, created_on: '2026-02-26T00:01:00.000000', scraped_time: '2026-02-26T00:00:50.839337+00:00' };
  return Object.fromEntries(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [name, source[name] ?? null])) as unknown as FeeScheduleResult2026;
}
/** The columns of a mirror's `results`, in their order, as `mkt sql` writes them in CSV. */
const resultsColumns = async (env: { env: Record<string, string> }) =>
  (await runInProcess(['sql', "SELECT string_agg(column_name, ',' ORDER BY column_index) AS names FROM duckdb_columns() WHERE table_name = 'results'", '-f', 'csv'], env)).stdout;
const byId = (items: readonly FeeScheduleResult2026[]) => [...items].sort((a, b) => a.record_id.localeCompare(b.record_id));

/**
 * A service that lives as long as the file, and two mirrors of it, each synced once: one of its
 * two records of the interface shape, and one of five of the 2026 shape. The tests that start
 * from either mirror each read a copy, after saying what the service serves from then on.
 */
let served: readonly object[] = [];
const FIRST_2026 = Array.from({ length: 5 }, (_, n) => record2026(n));
const fileMirrors = { server: undefined as unknown as Awaited<ReturnType<typeof serve2026Records>>, interface: '', shape2026: '', firstSync2026: '' };
beforeAll(async () => {
  served = [interfaceRecord(1), interfaceRecord(2)];
  fileMirrors.server = await serve2026Records(startRecordingServer, () => served as FeeScheduleResult2026[]);
  fileMirrors.interface = join(tempDir('mkt-mirror-'), 'interface.duckdb');
  expect((await runInProcess(['sync'], { env: { ...fileMirrors.server.env, MKT_MIRROR: fileMirrors.interface } })).code).toBe(0);
  served = FIRST_2026;
  fileMirrors.shape2026 = join(tempDir('mkt-mirror-'), '2026.duckdb');
  const first = await runInProcess(['sync', '-f', 'json'], { env: { ...fileMirrors.server.env, MKT_MIRROR: fileMirrors.shape2026 } });
  expect(first.code).toBe(0);
  fileMirrors.firstSync2026 = first.stdout;
});
afterAll(() => fileMirrors.server.close());
/** A copy of one of those mirrors, and the service it was synced from, which serves its records again. */
function fromFileMirror(shape: 'interface' | '2026') {
  served = shape === 'interface' ? [interfaceRecord(1), interfaceRecord(2)] : FIRST_2026;
  const mirror = copyMirror(shape === 'interface' ? fileMirrors.interface : fileMirrors.shape2026);
  return { server: fileMirrors.server, mirror, env: { env: { ...fileMirrors.server.env, MKT_MIRROR: mirror } } };
}

describe('records of the 2026 shape', () => {
  it('pass through JSON and NDJSON as sent, and CSV writes the 2026 column set, page_number a number and relationships JSON text', async () => {
    const records = Array.from({ length: 5 }, (_, n) => record2026(n));
    const server = await serve2026Records(startServer, () => records);
    const ndjson = await runInProcess(['results', '--all', '--page-size', '2', '-f', 'ndjson'], { env: server.env });
    expect(ndjson).toMatchObject({ code: 0, stderr: '', stdout: lines([...records].reverse()) });

    const csv = await runInProcess(['results', '--page-size', '1', '-f', 'csv'], { env: server.env });
    expect(csv.stderr).toBe('');
    expect(csv.stdout).toBe(`${HEADER_2026}\r\n`
      + '00000000-0000-4000-8000-000000000004,nyse,2026-02-26T00:00:50.839337Z,v1,equity,NYSE Price List.pdf,https://cdn.example.com/nyse/v1.pdf,7,'
      + 'fees_and_rebates,Charge 4,$0.0040,take,,per share,broker_dealer,,,,all,,,{All},{},,,"A note, ""quoted""",,\r\n');

    const cited = await runInProcess(['results', '--page-size', '1', '--page-number', '1', '-f', 'csv', '--columns', 'record_id,page_number,relationships'], { env: server.env });
    expect(cited.stdout).toBe('record_id,page_number,relationships\r\n'
      + '00000000-0000-4000-8000-000000000003,6,"{""footnotes"":[{""text"":""Footnote 3.""}],""definitions"":[{""term"":""ADV"",""text"":""Average daily volume.""}]}"\r\n');
  });

  it('names a column of neither shape before any request, and one of the other shape once the first record shows it', async () => {
    const server = await serve2026Records(startServer, () => [record2026(1)]);
    const unknown = await runInProcess(['results', '-f', 'csv', '--columns', 'record_id,nope'], { env: server.env });
    expect({ code: unknown.code, stderr: unknown.stderr.split('\n')[0] }).toEqual({ code: 2, stderr: 'mkt: unknown column "nope" in --columns' });
    expect(server.requests).toHaveLength(0);
    const otherShape = await runInProcess(['results', '-f', 'csv', '--columns', 'created_on'], { env: server.env });
    expect({ code: otherShape.code, stdout: otherShape.stdout, stderr: otherShape.stderr.split('\n')[0] }).toEqual({ code: 2, stdout: '', stderr: 'mkt: unknown column "created_on" in --columns' });
  });

  it('is a malformed answer when the records change shape during a walk', async () => {
    const server = await serve2026Records(startServer, () => [interfaceRecord(9), record2026(1)]);
    const file = join(tempDir('mkt-2026-'), 'out.csv');
    const walk = await runInProcess(['results', '--all', '--page-size', '1', '-o', file], { env: server.env });
    expect({ code: walk.code, written: existsSync(file), stderr: walk.stderr }).toEqual({
      code: 1,
      written: false,
      stderr: `mkt: ${new URL(server.url).host} sent a malformed answer: page 1 holds a record of the interface shape after records of the 2026 shape\n`,
    });
  });

  it('sync into a mirror of the 2026 shape, which --offline, sql and diff read, and a later sync that reads only the new', async () => {
    // The first sync is the file's, of these five records; the test reads a copy of its mirror.
    const { server, env } = fromFileMirror('2026');
    let records = FIRST_2026;
    expect(JSON.parse(fileMirrors.firstSync2026)).toMatchObject({ new_records: 5, total_records: 5, full_walk: true });

    const offline = await runInProcess(['results', '--offline', '--all', '-f', 'json'], env);
    expect(offline.code).toBe(0);
    // No created_on: the mirror orders by scraped_time in its place, then by id.
    expect(JSON.parse(offline.stdout)).toEqual(byId(records).reverse());
    const sql = await runInProcess(['sql', "SELECT record_id, page_number, relationships FROM results WHERE record_id LIKE '%3'", '-f', 'csv'], env);
    expect(sql.stdout).toBe('record_id,page_number,relationships\r\n'
      + '00000000-0000-4000-8000-000000000003,6,"{""footnotes"":[{""text"":""Footnote 3.""}],""definitions"":[{""term"":""ADV"",""text"":""Average daily volume.""}]}"\r\n');

    // Each table of records has the 2026 column set, in its order: no id, created_on or fee_reference.
    const tables = await runInProcess(['sql', `SELECT table_name, string_agg(column_name, ',' ORDER BY column_index) AS names FROM duckdb_columns()
      WHERE table_name IN ('results', 'mkt_removed_results', 'mkt_walk_results', 'results_with_values') GROUP BY table_name ORDER BY table_name`, '-f', 'csv'], env);
    expect(tables.stdout).toBe(`table_name,names\r\nmkt_removed_results,"${HEADER_2026},removed_at"\r\nmkt_walk_results,"${HEADER_2026}"\r\n`
      + `results,"${HEADER_2026}"\r\nresults_with_values,"${HEADER_2026.replace('fee_amount,', 'fee_amount,fee_amount_value,fee_amount_unit,')}"\r\n`);
    // A service without the record endpoint: the record by its record_id, from the mirror.
    const held = await runInProcess(['results', 'get', records[3]!.record_id, '-f', 'json'], env);
    expect({ code: held.code, record: JSON.parse(held.stdout) }).toEqual({ code: 0, record: records[3] });
    records = [...records, record2026(5, 'v2'), record2026(6, 'v2', { fee_amount: '$0.0099' })];
    served = records;
    const requestsBefore = server.requests.length;
    const second = await runInProcess(['sync', '-f', 'json'], env);
    expect(JSON.parse(second.stdout)).toMatchObject({ new_records: 2, total_records: 7, full_walk: false, new_versions: [{ version_id: 'v2', records: 2 }] });
    expect(server.requests.length - requestsBefore).toBe(1);
    const nothing = await runInProcess(['sync', '-f', 'json'], env);
    expect(JSON.parse(nothing.stdout)).toMatchObject({ new_records: 0, total_records: 7, full_walk: false, requests: 1 });
    expect(JSON.parse((await runInProcess(['results', '--offline', '--all', '-f', 'json'], env)).stdout)).toEqual([
      ...byId(records.slice(5)).reverse(),
      ...byId(records.slice(0, 5)).reverse(),
    ]);

    const diff = await runInProcess(['diff', 'nyse', 'equity', '--offline', '-f', 'csv', '--columns', 'change,item,before_id,after_id'], env);
    expect(diff.stdout.split('\r\n').slice(0, 2)).toEqual(['change,item,before_id,after_id', 'removed,Charge 0 · take · broker_dealer · {All},00000000-0000-4000-8000-000000000000,']);
    const json = await runInProcess(['diff', 'nyse', 'equity', '--offline', '-f', 'ndjson', '--columns', 'change,before.record_id,after.page_number'], env);
    expect(json.stdout.split('\n')[0]).toBe('{"change":"removed","before":{"record_id":"00000000-0000-4000-8000-000000000000"},"after":null}');
  });

  it('a mirror of one shape synced from a service answering in the other is exit 2 with the --full-refresh hint, nothing written', async () => {
    const { server, env } = fromFileMirror('interface');
    const records = [record2026(1), record2026(2)];
    served = records;
    const refused = await runInProcess(['sync'], env);
    expect({ code: refused.code, stderr: refused.stderr }).toEqual({
      code: 2,
      stderr: `mkt: the mirror holds records of the interface shape, and ${server.url} answers in the 2026 shape\n`
        + 'Rebuild the mirror with `mkt sync --full-refresh`, or name another with --mirror.\n',
    });
    expect((await runInProcess(['sql', 'SELECT id FROM results UNION ALL SELECT id FROM mkt_walk_results ORDER BY id', '-f', 'csv'], env)).stdout).toBe('id\r\ni-1\r\ni-2\r\n');
    const rebuilt = await runInProcess(['sync', '--full-refresh', '-f', 'json'], env);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ new_records: 2, removed_records: 2, total_records: 2 });
    expect(JSON.parse((await runInProcess(['results', '--offline', '--all', '-f', 'json'], env)).stdout)).toEqual(byId(records).reverse());
    // The interface records it replaced do not fit the 2026 columns of mkt_removed_results, made anew.
    const rebuiltTables = await runInProcess(['sql', `SELECT (SELECT string_agg(column_name, ',' ORDER BY column_index) FROM duckdb_columns() WHERE table_name = 'results') AS names,
      (SELECT count(*) FROM mkt_removed_results) AS removed`, '-f', 'csv'], env);
    expect(rebuiltTables.stdout).toBe(`names,removed\r\n"${HEADER_2026}",0\r\n`);
    served = [interfaceRecord(3)];
    expect(JSON.parse((await runInProcess(['sync', '--full-refresh', '-f', 'json'], env)).stdout)).toMatchObject({ new_records: 1, removed_records: 2, total_records: 1 });
    expect(await resultsColumns(env)).toBe(`names\r\n"${FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS.map((field) => field.name).join(',')}"\r\n`);
    expect(JSON.parse((await runInProcess(['results', '--offline', '--all', '-f', 'json'], env)).stdout)).toEqual(served);
  });
});

describe('a mirror that held no records', () => {
  it('takes the shape of the first records a later sync brings', async () => {
    let records: FeeScheduleResult2026[] = [];
    const server = await serve2026Records(startServer, () => records);
    const env = { env: { ...server.env, MKT_MIRROR: join(tempDir('mkt-mirror-'), 'm.duckdb') } };
    expect(JSON.parse((await runInProcess(['sync', '-f', 'json'], env)).stdout)).toMatchObject({ total_records: 0, full_walk: true });
    records = [record2026(1), record2026(2)];
    expect(JSON.parse((await runInProcess(['sync', '-f', 'json'], env)).stdout)).toMatchObject({ new_records: 2, full_walk: false });
    expect(JSON.parse((await runInProcess(['results', '--offline', '--all', '-f', 'json'], env)).stdout)).toEqual(byId(records).reverse());
    expect(await resultsColumns(env)).toBe(`names\r\n"${HEADER_2026}"\r\n`);
  });
});

describe('a mirror of 2026 records an earlier mkt kept in the interface columns', () => {
  it('is refused by --offline with the --full-refresh hint, and its next sync rebuilds it in the 2026 columns', async () => {
    const { mirror, env } = fromFileMirror('2026');
    const records = FIRST_2026;
    // As an earlier mkt left it: record_id in id, created_on and fee_reference null, the 26 fields first.
    const own = new Set(FEE_SCHEDULE_RESULT_2026_FIELDS.map((field) => field.name));
    const earlierColumns = FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS.map((field) =>
      field.name === 'id' ? 'record_id AS id' : own.has(field.name as never) ? field.name : `NULL::${field.kind === 'string' ? 'VARCHAR' : 'TIMESTAMP'} AS ${field.name}`);
    const earlier = await openDuckDB();
    await earlier.rows(`ATTACH '${mirror}' AS placed;
      CREATE TABLE placed.earlier AS SELECT ${earlierColumns.join(', ')} FROM placed.results;
      DROP VIEW placed.results_with_values; DROP TABLE placed.results; ALTER TABLE placed.earlier RENAME TO results;`);
    earlier.close();
    expect(await runInProcess(['results', '--offline'], env)).toMatchObject({
      code: 1,
      stderr: `mkt: ${mirror} holds records of the 2026 shape in the columns of an earlier mkt\nRun \`mkt sync --full-refresh\` to rebuild it.\n`,
    });
    expect(JSON.parse((await runInProcess(['sync', '-f', 'json'], env)).stdout)).toMatchObject({ new_records: 0, removed_records: 0, total_records: 5, full_walk: true });
    expect(await resultsColumns(env)).toBe(`names\r\n"${HEADER_2026}"\r\n`);
    expect(JSON.parse((await runInProcess(['results', '--offline', '--all', '-f', 'json'], env)).stdout)).toEqual(byId(records).reverse());
  });
});

describe('a mirror an earlier mkt made, without the citation columns', () => {
  it('is read as before, and its next sync adds the columns, columns only', async () => {
    const { mirror, env } = fromFileMirror('interface');
    const records = served;
    // As an earlier mkt left it: no citation columns, no shape.
    const earlier = await openDuckDB();
    await earlier.rows(`ATTACH '${mirror}' AS placed;
      ${['results', 'mkt_walk_results', 'mkt_removed_results'].map((table) => ['source_document', 'source_link', 'page_number', 'relationships'].map((column) => `ALTER TABLE placed.${table} DROP COLUMN ${column};`).join('\n')).join('\n')}
      ALTER TABLE placed.mkt_mirror DROP COLUMN shape;`);
    earlier.close();
    const expected = lines([...records].reverse());
    expect(await runInProcess(['results', '--offline', '-f', 'ndjson'], env)).toMatchObject({ code: 0, stdout: expected });
    expect(await resultsColumns(env)).not.toContain('source_document');
    expect(JSON.parse((await runInProcess(['sync', '-f', 'json'], env)).stdout)).toMatchObject({ new_records: 0, changed_records: 0, removed_records: 0 });
    expect(await resultsColumns(env)).toMatch(/,created_on,source_document,source_link,page_number,relationships"\r\n$/);
    expect(await runInProcess(['results', '--offline', '-f', 'ndjson'], env)).toMatchObject({ code: 0, stdout: expected });
    // A record withdrawn goes to mkt_removed_results, whose added columns follow removed_at.
    served = [records[1]!];
    expect(JSON.parse((await runInProcess(['sync', '-f', 'json'], env)).stdout)).toMatchObject({ removed_records: 1, full_walk: true });
    const removed = await runInProcess(['sql', 'SELECT id, removed_at IS NOT NULL AS stamped, page_number FROM mkt_removed_results', '-f', 'csv'], env);
    expect(removed.stdout).toBe('id,stamped,page_number\r\ni-1,true,\r\n');
  });
});
