import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FEE_SCHEDULE_RESULT_2026_FIELDS, FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';
import { run } from '../../src/main.js';
import { inFilterSpelling } from '../../src/mirror/mirror-filters.js';
import { useDuckDB } from '../helpers/duckdb.js';
import { runPythonNeeding } from '../helpers/python.js';
import { sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { memoryDeps, runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { once } from '../helpers/once.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 41, point 1: `mkt export` writes a Hive-partitioned Parquet tree from the mirror.
const sandbox = useSandbox({ records: 60 });
const sandbox2026 = useSandbox({ records: 60, shape: '2026' });
const servers = useRecordingServers();
const duck = useDuckDB();
const folder = tempDir('mkt-export-');
const mirror = join(folder, 'interface.duckdb');
const mirror2026 = join(folder, '2026.duckdb');
const env = (path = mirror, running = sandbox) => ({ env: { MKT_BASE_URL: running.current.url, MKT_API_KEY: running.current.keys.api_key, MKT_MIRROR: path } });

/** A new path for a tree, in a directory of its own. */
const newTree = () => join(tempDir('mkt-tree-'), 'tree');

const PARQUET_FILE = /^part-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.parquet$/;

/** Every file of a tree, by its path inside it. */
const filesOf = (tree: string) => (readdirSync(tree, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
  .filter((entry) => entry.isFile())
  .map((entry) => relative(tree, join(entry.parentPath, entry.name)))
  .sort();

type Row = Record<string, string | null>;

/** Rows with each value as text (timestamps as their microseconds since 1970), by id: how each reader's rows are compared. */
const byId = (rows: Row[]) => [...rows].sort((a, b) => String(a.id ?? a.record_id).localeCompare(String(b.id ?? b.record_id)));

/** What mirrorRows read of each mirror: the two synced before the tests never change, and several tests compare with them. */
const readMirrors = new Map<string, Promise<Row[]>>();

/** The fields of the single-file export of the shape, each as text, timestamps as microseconds: what `mkt sql` reads of the mirror. */
function mirrorRows(path: string, shape: 'interface' | '2026', running = sandbox): Promise<Row[]> {
  let rows = readMirrors.get(path);
  if (rows === undefined) readMirrors.set(path, (rows = readMirrorRows(path, shape, running)));
  return rows;
}

async function readMirrorRows(path: string, shape: 'interface' | '2026', running: typeof sandbox): Promise<Row[]> {
  const names = shape === 'interface' ? FEE_SCHEDULE_RESULT_FIELD_NAMES : FEE_SCHEDULE_RESULT_2026_FIELDS.map((field) => field.name);
  const columns = names.map((name) => (name === 'scraped_time' || name === 'created_on' ? `epoch_us(${name})::VARCHAR AS ${name}` : `${name}::VARCHAR AS ${name}`));
  const sql = await runInProcess(['sql', `SELECT ${columns.join(', ')} FROM results`, '-f', 'json'], env(path, running));
  expect(sql.code).toBe(0);
  return JSON.parse(sql.stdout) as Row[];
}

/** The mirror's rows as a tree of these keys has them: the fee type of a key in the filter table's spelling, and the day of scraped_time when that is a key. */
function asInTree(rows: Row[], keys = 'exchange_name,fee_type'): Row[] {
  const day = (micros: string) => new Date(Number(BigInt(micros) / 1000n)).toISOString().slice(0, 10);
  return byId(rows.map(({ fee_type: feeType = null, scraped_time: scraped = null, ...row }) => ({
    ...row,
    scraped_time: scraped,
    fee_type: feeType !== null && keys.includes('fee_type') ? inFilterSpelling('fee_type', feeType) : feeType,
    ...(keys.includes('scraped_date') ? { scraped_date: scraped === null ? null : day(scraped) } : {}),
  })));
}

/** The tree as DuckDB reads it with partition discovery, each value as text. */
async function duckdbRows(tree: string): Promise<Row[]> {
  const read = `read_parquet('${tree}/**/*.parquet', hive_partitioning = true)`;
  const names = (await duck.current.rows(`DESCRIBE SELECT * FROM ${read}`)).map((column) => column.column_name as string);
  const columns = names.map((name) => (name === 'scraped_time' || name === 'created_on' ? `epoch_us(${name})::VARCHAR AS ${name}` : `${name}::VARCHAR AS ${name}`));
  return byId((await duck.current.rows(`SELECT ${columns.join(', ')} FROM ${read}`)) as Row[]);
}

/** The interface mirror's tree by a day and the exchange, keys given out of order: the nesting test and pyarrow and polars read it. */
const dayTree = once(async () => {
  const tree = newTree();
  expect((await runInProcess(['export', tree, '--partition-by', 'scraped_date,EXCHANGE_NAME'], env())).code).toBe(0);
  return tree;
});

/** Each mirror's tree by the default keys, and what the interface one's export said: read by several tests. */
const defaultTree = newTree();
const defaultTree2026 = newTree();
let defaultExport: Awaited<ReturnType<typeof runInProcess>>;

beforeAll(async () => {
  expect((await runInProcess(['sync'], env())).code).toBe(0);
  expect((await runInProcess(['sync'], env(mirror2026, sandbox2026))).code).toBe(0);
  defaultExport = await runInProcess(['export', defaultTree], env());
  expect((await runInProcess(['export', defaultTree2026], env(mirror2026, sandbox2026))).code).toBe(0);
});

describe('mkt export', () => {
  it('writes a tree by exchange_name and fee_type: part-<uuid>.parquet files, _SUCCESS, a one-line summary on stderr', async () => {
    const [tree, exported] = [defaultTree, defaultExport];
    const files = filesOf(tree);
    const parquet = files.filter((file) => file !== '_SUCCESS');
    expect(exported).toMatchObject({ code: 0, stdout: '', stderr: `exported 60 records in ${parquet.length} files to ${tree}\n` });
    expect(files).toContain('_SUCCESS');
    for (const file of parquet) expect(file).toMatch(new RegExp(`^exchange_name=[^/]+/fee_type=(Option|Equity)/${PARQUET_FILE.source.slice(1)}`));
    // Nothing left beside the tree.
    expect(readdirSync(join(tree, '..'))).toEqual(['tree']);
  });

  it('holds exactly the mirror\'s records as mkt sql reads them, fee types in the filter table\'s spelling, read back by DuckDB', async () => {
    const expected = asInTree(await mirrorRows(mirror, 'interface'));
    // The sandbox's records spell a fee type otherwise too (OPTION), which is one folder all the same.
    expect(new Set(expected.map((row) => row.fee_type))).toEqual(new Set(['Option', 'Equity']));
    expect(await duckdbRows(defaultTree)).toEqual(expected);
  });

  it.each(['interface', '2026'] as const)('writes the values, types and microseconds of the single-file Parquet export, without the key columns: %s shape', async (shape) => {
    const [tree, options, records] = shape === 'interface' ? [defaultTree, env(), 60] : [defaultTree2026, env(mirror2026, sandbox2026), 60];
    const single = join(folder, `single-${shape}.parquet`);
    expect((await runInProcess(['results', '--offline', '--all', '-o', single], options)).code).toBe(0);
    const [file] = filesOf(tree).filter((name) => name.endsWith('.parquet'));
    const schema = async (path: string) =>
      duck.current.rows(`SELECT name, type, logical_type FROM parquet_schema('${path}') WHERE type IS NOT NULL AND name NOT IN ('exchange_name', 'fee_type')`);
    // DuckDB's writer gives text no logical type STRING (docs/pipelines.md): the physical types and timestamp units are the point.
    expect(await schema(join(tree, file!))).toEqual(
      (await schema(single)).map((column) => ({ ...column, logical_type: String(column.logical_type).startsWith('Timestamp') ? column.logical_type : null })),
    );
    // The key columns come last from the folders: the rest compared column by column, by name.
    const names = (await duck.current.rows(`DESCRIBE SELECT * EXCLUDE (fee_type) FROM '${single}'`)).map((column) => column.column_name as string).join(', ');
    const [inSingle, inTree] = [`SELECT ${names} FROM '${single}'`, `SELECT ${names} FROM read_parquet('${tree}/**/*.parquet', hive_partitioning = true)`];
    // Each side read once, for both differences.
    const differences = await duck.current.rows(
      `WITH s AS MATERIALIZED (${inSingle}), t AS MATERIALIZED (${inTree}) SELECT count(*)::INTEGER AS n FROM ((FROM s EXCEPT ALL FROM t) UNION ALL (FROM t EXCEPT ALL FROM s))`,
    );
    expect(differences).toEqual([{ n: 0 }]);
    expect(await duck.current.rows(`SELECT count(*)::INTEGER AS n FROM '${single}'`)).toEqual([{ n: records }]);
  });

  it('nests the keys in their one order whatever order they are given, a day as YYYY-MM-DD', async () => {
    const tree = await dayTree();
    const folders = new Set(filesOf(tree).filter((file) => file !== '_SUCCESS').map((file) => file.split('/').slice(0, -1).join('/')));
    for (const path of folders) expect(path).toMatch(/^exchange_name=[^/]+\/scraped_date=\d{4}-\d{2}-\d{2}$/);
    // fee_type, no key here, keeps the service's spelling, as in the single-file export.
    expect(await duckdbRows(tree)).toEqual(asInTree(await mirrorRows(mirror, 'interface'), 'exchange_name,scraped_date'));
  });

  it('exports what the filters of results --offline choose', async () => {
    const tree = newTree();
    // The exchange and fee type of the most records, so that the filters choose several.
    const rows = await mirrorRows(mirror, 'interface');
    const pairOf = (row: Row) => `${row.exchange_name}\u0000${inFilterSpelling('fee_type', row.fee_type!)}`;
    const first = rows.reduce((most, row) => (rows.filter((other) => pairOf(other) === pairOf(row)).length > rows.filter((other) => pairOf(other) === pairOf(most)).length ? row : most));
    const filters = ['--exchange-name', first.exchange_name!, '--fee-type', first.fee_type!.toLowerCase()];
    const exported = await runInProcess(['export', tree, ...filters, '--partition-by', 'fee_type'], env());
    expect(exported.code).toBe(0);
    const offline = await runInProcess(['results', '--offline', '--all', ...filters, '-f', 'ndjson'], env());
    const ids = offline.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id).sort();
    expect(ids.length).toBeGreaterThan(1);
    expect(exported.stderr).toMatch(new RegExp(`^exported ${ids.length} records in 1 file to `));
    expect((await duckdbRows(tree)).map((row) => row.id)).toEqual(ids);
    const folder = `fee_type=${inFilterSpelling('fee_type', first.fee_type!)}/`;
    expect(filesOf(tree).filter((file) => file !== '_SUCCESS').every((file) => file.startsWith(folder))).toBe(true);
  });

  it('writes a mirror of the 2026 shape in its own columns, snake_case fee types in the filter table\'s spelling', async () => {
    const tree = defaultTree2026;
    expect(await duckdbRows(tree)).toEqual(asInTree(await mirrorRows(mirror2026, '2026', sandbox2026)));
    expect(new Set(filesOf(tree).filter((file) => file !== '_SUCCESS').map((file) => file.split('/')[1]))).toEqual(new Set(['fee_type=Option', 'fee_type=Equity']));
  });

  it('writes a null or empty key value as __HIVE_DEFAULT_PARTITION__, which DuckDB reads back as null, as Hive does', async () => {
    const tree = await oddTree();
    expect(filesOf(tree).map((file) => file.split('/').slice(0, -1).join('/')).sort()).toEqual([
      '',
      'exchange_name=A%2FB%20C%3DD%25/fee_type=Option',
      'exchange_name=X/fee_type=Option',
      'exchange_name=X/fee_type=__HIVE_DEFAULT_PARTITION__',
      'exchange_name=__HIVE_DEFAULT_PARTITION__/fee_type=Equity',
    ]);
    expect((await duckdbRows(tree)).map((row) => [row.id, row.exchange_name, row.fee_type, row.fee_notes])).toEqual([
      ['a', 'X', 'Option', ''],
      ['b', 'X', null, ''],
      ['c', 'X', null, ''],
      ['d', 'A/B C=D%', 'Option', null],
      ['e', null, 'Equity', ''],
    ]);
  });

  it('is read back by pyarrow and polars with partition discovery, the mirror\'s rows and values, null keys null', async ({ skip }) => {
    // Trees the other tests wrote: each shape's columns, a day key (typed by the readers' discovery), and null keys.
    const odd = await oddTree();
    const expected: [string, Row[]][] = [
      [defaultTree, asInTree(await mirrorRows(mirror, 'interface'))],
      [defaultTree2026, asInTree(await mirrorRows(mirror2026, '2026', sandbox2026))],
      [await dayTree(), asInTree(await mirrorRows(mirror, 'interface'), 'exchange_name,scraped_date')],
      [odd, await duckdbRows(odd)],
    ];
    // Skipped, saying why, where python3 cannot find them (.ci/run installs them).
    const ran = await runPythonNeeding(['pyarrow', 'polars'], READ_TREE, expected.map(([tree]) => tree));
    if ('lacks' in ran) return skip(`SKIPPED: ${ran.lacks}`);
    const read = JSON.parse(ran.stdout) as Record<string, Record<string, Row[]>>;
    for (const [tree, rows] of expected) {
      expect(byId(read[tree]!.pyarrow!), `pyarrow, ${tree}`).toEqual(rows);
      expect(byId(read[tree]!.polars!), `polars, ${tree}`).toEqual(rows);
    }
  });
});

let odd: Promise<string> | undefined;

/** A tree of a hostile server's records: fee types null, "", OPTION and option, exchange names "" and one with `/`, ` `, `=` and `%`. */
function oddTree(): Promise<string> {
  odd ??= (async () => {
    const records = [
      record('a', { fee_type: 'OPTION' }),
      record('b', { fee_type: null }),
      record('c', { fee_type: '' }),
      record('d', { exchange_name: 'A/B C=D%', fee_type: 'option', fee_notes: null }),
      record('e', { exchange_name: '' }),
    ];
    const server = await servers((_request, response) => {
      sendJson(response, 200, { success: true, message: '', data: records, total_records: records.length, page_size: 100, total_pages: 1, current_page: 0, query_time: 0.1, disable_jsonable_encoder: false });
    });
    const options = { env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k'.repeat(32), MKT_MIRROR: join(folder, 'odd.duckdb') } };
    expect((await runInProcess(['sync'], options)).code).toBe(0);
    const tree = newTree();
    expect((await runInProcess(['export', tree], options)).code).toBe(0);
    return tree;
  })();
  return odd;
}

/**
 * Exports by fee_type alone, in few files: the directory and the summary, not the tree's folders,
 * are the point. One into an empty directory, with stderr a terminal, read by the test of an
 * empty directory and that of the summary; one with --quiet, whose tree the --overwrite test then replaces.
 */
const intoEmpty = once(async () => {
  const tree = newTree();
  mkdirSync(tree);
  return { tree, run: await runInProcess(['export', tree, '--partition-by', 'fee_type'], { ...env(), stderr: { isTTY: true, columns: 80 } }) };
});
const quietExport = once(async () => {
  const tree = newTree();
  return { tree, run: await runInProcess(['export', tree, '--quiet', '--partition-by', 'fee_type'], env()) };
});

/** A mirror where none is: export checks where the tree goes before it reads the mirror, and a refused place needs none. */
const noMirror = () => env(join(folder, 'absent', 'm.duckdb'));

describe('mkt export, where the tree goes', () => {
  it('refuses a directory that is not empty, without --overwrite (exit 2)', async () => {
    const tree = newTree();
    mkdirSync(tree);
    writeFileSync(join(tree, 'notes.txt'), 'mine');
    const refused = await runInProcess(['export', tree], noMirror());
    expect(refused).toEqual(expect.objectContaining({ code: 2, stdout: '', stderr: `mkt: ${tree} is not empty\nAdd --overwrite to replace an earlier export there, or name a new directory.\n` }));
    expect(readdirSync(tree)).toEqual(['notes.txt']);
  });

  it('writes into an empty directory', async () => {
    const { tree, run } = await intoEmpty();
    expect(run.code).toBe(0);
    expect(filesOf(tree)).toContain('_SUCCESS');
  });

  it('replaces an earlier export whole with --overwrite: none of its files stays, nothing is left beside it', async () => {
    const { tree } = await quietExport();
    const earlier = filesOf(tree);
    expect(earlier).toContain('_SUCCESS');
    // The same key, few files: the earlier fee_type=Option folder and fee_type=Equity file must both go.
    expect((await runInProcess(['export', tree, '--overwrite', '--fee-type', 'Equity', '--partition-by', 'fee_type'], env())).code).toBe(0);
    const now = filesOf(tree);
    expect(now.filter((file) => earlier.includes(file))).toEqual(['_SUCCESS']);
    expect(now.length).toBe(2);
    expect(now.every((file) => file === '_SUCCESS' || /^fee_type=Equity\//.test(file))).toBe(true);
    expect(readdirSync(join(tree, '..'))).toEqual(['tree']);
  });

  it('replaces, through a symbolic link, the tree it leads to, and keeps the link', async () => {
    const real = newTree();
    // An earlier tree of other folders than the one that replaces it, in few files.
    expect((await runInProcess(['export', real, '--partition-by', 'scraped_date', '--fee-type', 'Equity', '--exchange-name', 'NYSE'], env())).code).toBe(0);
    const earlier = readdirSync(real);
    expect(earlier).toContain('_SUCCESS');
    expect(earlier.length).toBeGreaterThan(1);
    expect(earlier.every((entry) => entry === '_SUCCESS' || entry.startsWith('scraped_date='))).toBe(true);
    const link = join(tempDir('mkt-tree-'), 'link');
    symlinkSync(real, link);
    expect((await runInProcess(['export', link, '--overwrite', '--partition-by', 'fee_type'], env())).code).toBe(0);
    expect(readdirSync(real).sort()).toEqual(['_SUCCESS', 'fee_type=Equity', 'fee_type=Option']);
    expect(readdirSync(link).sort()).toEqual(['_SUCCESS', 'fee_type=Equity', 'fee_type=Option']);
  });

  it('refuses --overwrite of a directory that holds what no export wrote, and removes nothing', async () => {
    const tree = newTree();
    mkdirSync(join(tree, 'exchange_name=NYSE'), { recursive: true });
    writeFileSync(join(tree, 'thesis.tex'), 'mine');
    const refused = await runInProcess(['export', tree, '--overwrite'], noMirror());
    expect(refused).toEqual(expect.objectContaining({
      code: 2,
      stderr: `mkt: ${tree} holds thesis.tex, which no export wrote: --overwrite replaces only an export's tree\nName a new directory, or empty this one.\n`,
    }));
    expect(readdirSync(tree).sort()).toEqual(['exchange_name=NYSE', 'thesis.tex']);
  });

  it('refuses a file, a named pipe, a device, and links to them or to nothing (exit 2); links in a loop are one line (exit 1)', async () => {
    const dir = tempDir('mkt-tree-');
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const links = { toFile: join(dir, 'to-file'), toNothing: join(dir, 'to-nothing') };
    symlinkSync(file, links.toFile);
    symlinkSync(join(dir, 'absent'), links.toNothing);
    const hint = 'Name a directory for the tree, or a new path.';
    for (const [path, what] of [[file, 'a file'], [fifo, 'a named pipe'], ['/dev/null', 'a device'], [links.toFile, 'a file']] as const) {
      const refused = await runInProcess(['export', path, '--overwrite'], noMirror());
      expect(refused, path).toEqual(expect.objectContaining({ code: 2, stdout: '', stderr: `mkt: ${path} is ${what}, not a directory\n${hint}\n` }));
    }
    const dangling = await runInProcess(['export', links.toNothing], noMirror());
    expect(dangling).toEqual(expect.objectContaining({ code: 2, stderr: `mkt: ${links.toNothing} is a symbolic link to nothing\n${hint}\n` }));
    const loop = join(dir, 'loop');
    symlinkSync(loop, loop);
    const looped = await runInProcess(['export', loop], noMirror());
    expect(looped).toEqual(expect.objectContaining({ code: 1, stderr: `mkt: cannot write ${loop}: too many symbolic links encountered (ELOOP)\n` }));
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('refuses an unknown key with the allowed ones, no key at all, and the output options of other commands (exit 2)', async () => {
    const tree = newTree();
    expect(await runInProcess(['export', tree, '--partition-by', 'exchange_name,venue'], env())).toEqual(expect.objectContaining({
      code: 2,
      stdout: '',
      stderr: 'mkt: --partition-by: unknown value "venue"\nAllowed values: exchange_name, fee_type, scraped_date.\n',
    }));
    expect(await runInProcess(['export', tree, '--partition-by', ''], env())).toEqual(expect.objectContaining({
      code: 2,
      stderr: 'mkt: --partition-by needs at least one key\nAllowed keys: exchange_name, fee_type, scraped_date.\n',
    }));
    for (const [flag, value] of [['-o', 'fees.parquet'], ['-f', 'parquet'], ['--columns', 'id']]) {
      const refused = await runInProcess([flag!, value!, 'export', tree], env());
      expect(refused).toEqual(expect.objectContaining({ code: 2, stderr: expect.stringMatching(/^mkt: export writes Parquet files into <dir>: leave out --(output|format|columns)\n$/) }));
    }
    expect(existsSync(tree)).toBe(false);
  });

  it('has its partition keys offered by the completions', async () => {
    const bash = await runInProcess(['completion', 'bash']);
    expect(bash.stdout).toContain('--partition-by) _mkt_kind=list _mkt_words=(exchange_name fee_type scraped_date) ;;');
  });

  it('refuses filters the mirror cannot answer (exit 2)', async () => {
    const tree = newTree();
    const path = join(folder, 'nyse.duckdb');
    expect((await runInProcess(['sync', '--exchange-name', 'NYSE'], env(path))).code).toBe(0);
    const refused = await runInProcess(['export', tree, '--exchange-name', 'CBOE'], env(path));
    expect(refused).toEqual(expect.objectContaining({
      code: 2,
      stderr: `mkt: the mirror cannot answer this: the mirror holds no --exchange-name CBOE, only NYSE\n${path} was synced with --exchange-name NYSE; drop --offline to ask the service.\n`,
    }));
    expect(existsSync(tree)).toBe(false);
  });

  it('leaves no tree and no hidden directory at Ctrl-C, and exits 130', async () => {
    const tree = newTree();
    const deps = memoryDeps(env());
    const write = deps.stderr.write.bind(deps.stderr) as (chunk: unknown, ...rest: unknown[]) => boolean;
    // Ctrl-C once the tree is being written, beside where it goes.
    deps.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (String(chunk).includes('writing the tree in')) setImmediate(() => process.emit('SIGINT', 'SIGINT'));
      return write(chunk, ...rest);
    }) as typeof deps.stderr.write;
    // The process's own deadline for its clean-up (src/main.ts) is cleared once the clean-up is
    // over, or it would end the test run: held on a fake clock to be counted.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let code: number;
    let deadlines: number;
    try {
      code = await run(['export', tree, '--verbose'], deps);
      deadlines = vi.getTimerCount();
    } finally {
      vi.useRealTimers();
    }
    expect(code).toBe(130);
    expect(deadlines).toBe(0);
    expect(deps.stderr.text()).toMatch(/mkt: interrupted by SIGINT\n$/);
    expect(readdirSync(join(tree, '..'))).toEqual([]);
  });

  it('shows the summary at a terminal, and nothing with --quiet', async () => {
    const { tree, run: shown } = await intoEmpty();
    expect(shown.code).toBe(0);
    expect(shown.stderr).toMatch(new RegExp(`exported 60 records in 2 files to ${tree}\\n$`));
    const { run: quiet } = await quietExport();
    expect(quiet).toEqual(expect.objectContaining({ code: 0, stdout: '', stderr: '' }));
  });
});

/** A record of a hostile server's, every interface field there. */
function record(id: string, extra: Record<string, unknown>): Record<string, unknown> {
  const base = { exchange_name: 'X', fee_type: 'Equity', fee_category: 'Participant Fee', fee_charge_type: 'c', fee_amount: '$1', fee_action: 'Other', fee_participant: 'All' };
  const fields: Record<string, unknown> = { id, ...base, version_id: `v-${id}`, scraped_time: '2024-05-01T10:00:00.123456+00:00', created_on: '2024-05-01T10:00:00.123456', ...extra };
  return Object.fromEntries(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [name, name in fields ? fields[name] : name === 'fee_notes' ? '' : null]));
}

/** Reads trees with pyarrow's and polars' partition discovery, each value as text (timestamps as microseconds): `{tree: {"pyarrow": rows, "polars": rows}}`. */
const READ_TREE = `
import datetime, json, sys
import polars as pl
import pyarrow.dataset as ds

def text(value):
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime.datetime):
        epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc if value.tzinfo else None)
        return str((value - epoch) // datetime.timedelta(microseconds=1))
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)

def rows(read):
    return [{key: text(value) for key, value in row.items()} for row in read]

print(json.dumps({tree: {
    "pyarrow": rows(ds.dataset(tree, format="parquet", partitioning="hive").to_table().to_pylist()),
    "polars": rows(pl.scan_parquet(tree + "/**/*.parquet", hive_partitioning=True).collect().to_dicts()),
} for tree in sys.argv[1:]}))
`;
