import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBFile, startDuckDB } from '../../../src/mirror/duckdb.js';
import { tempDir } from '../../helpers/temp-dir.js';

// mkt's own queries read DuckDB's answers as SqlValue (src/mirror/duckdb.ts): these are the
// values, the nulls and the bindings those reads must get right.
describe('DuckDBFile', () => {
  let file: DuckDBFile;
  beforeAll(async () => {
    file = await DuckDBFile.open(':memory:', { readOnly: false });
  });
  afterAll(() => file.close());

  it('reads text (inline up to 12 bytes, and longer), whole numbers, booleans and nulls', async () => {
    const rows = await file.rows(
      `SELECT * FROM (VALUES
         ('', 0, 0::BIGINT, false),
         ('twelve bytes', -2147483648, (-9223372036854775807 - 1)::BIGINT, true),
         ('thirteen byte', 2147483647, 9223372036854775807::BIGINT, NULL),
         ('Zürich — 東京 🚀 and on past twelve bytes', NULL, NULL, true),
         (NULL, 7, 1, false)) t(text, whole, big, yes)`,
    );
    expect(rows).toEqual([
      { text: '', whole: 0, big: 0n, yes: false },
      { text: 'twelve bytes', whole: -2147483648, big: -9223372036854775808n, yes: true },
      { text: 'thirteen byte', whole: 2147483647, big: 9223372036854775807n, yes: null },
      { text: 'Zürich — 東京 🚀 and on past twelve bytes', whole: null, big: null, yes: true },
      { text: null, whole: 7, big: 1n, yes: false },
    ]);
  });

  it('reads every row of answers of several chunks, with nulls anywhere in a chunk', async () => {
    const sql = "SELECT CASE WHEN i % 7 = 3 THEN NULL ELSE repeat('é', (i % 20)::INTEGER) END FROM range(5000) t(i) ORDER BY i";
    const expected = Array.from({ length: 5000 }, (_, i) => (i % 7 === 3 ? null : 'é'.repeat(i % 20)));
    expect(await file.column(sql)).toEqual(expected);
    const streamed: (string | null)[] = [];
    const chunks: number[] = [];
    await file.stream(sql, (values) => {
      chunks.push(values.length);
      streamed.push(...(values as (string | null)[]));
    });
    expect(streamed).toEqual(expected);
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('runs one call at a time on its connection: a query asked for while an answer is streamed waits, and the stream reads on to its end', async () => {
    const streamed: number[] = [];
    let begun!: () => void;
    const streamBegun = new Promise<void>((resolve) => (begun = resolve));
    const streaming = file.stream('SELECT i::INTEGER FROM range(100000) t(i)', (values) => {
      streamed.push(values.length);
      begun();
    });
    await streamBegun;
    expect(await file.rows('SELECT 42 AS answer')).toEqual([{ answer: 42 }]);
    await streaming;
    expect(streamed.reduce((sum, length) => sum + length, 0)).toBe(100000);
  });

  it('binds text, whole numbers by their size, bigints, booleans, nulls and fractions', async () => {
    const [row] = await file.rows('SELECT typeof($1) || typeof($2) || typeof($3) || typeof($4) || typeof($5) || typeof($6) || typeof($7) AS types, $1 AS text, $7::VARCHAR AS fraction', [
      'Zürich',
      7,
      2 ** 40,
      2n ** 62n,
      true,
      null,
      1.5,
    ]);
    expect(row).toEqual({ types: 'VARCHARINTEGERBIGINTBIGINTBOOLEAN"NULL"DOUBLE', text: 'Zürich', fraction: '1.5' });
  });

  it("runs several statements at once, and fails with DuckDB's own error", async () => {
    await file.run('CREATE TABLE t (a VARCHAR); INSERT INTO t VALUES ($$x$$)');
    expect(await file.column('SELECT a FROM t')).toEqual(['x']);
    await expect(file.rows('SELEC 1')).rejects.toThrow(/^Parser Error: syntax error at or near "SELEC"/);
  });

  it('closes once a query still running has been interrupted and has ended, and refuses a call begun after', async () => {
    const closing = await DuckDBFile.open(':memory:', { readOnly: false });
    const running = closing.column('SELECT count(*)::BIGINT FROM range(1000000000) a, range(1000) b');
    const closed = closing.close();
    await expect(running).rejects.toThrow(/INTERRUPT/);
    await closed;
    await expect(closing.rows('SELECT 1 AS one')).rejects.toThrow('the mirror was closed');
  });

  it('ends a call whose query begins after the interrupt, as at a Ctrl-C while mkt sql prepares its statement, and leaves a call begun later to run', async () => {
    const interrupted = await DuckDBFile.open(':memory:', { readOnly: false });
    // Long enough to reach the test's timeout, were the interrupt lost before the query began.
    const running = interrupted.withConnection(async (connection) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return connection.run('SELECT count(*) FROM range(1000000000) a, range(1000) b');
    });
    const interrupting = interrupted.interrupt();
    await expect(running).rejects.toThrow(/INTERRUPT/);
    await interrupting;
    expect(await interrupted.rows('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await interrupted.close();
  });

  it('installs and loads no extension on its own, which would fetch it from the network', async () => {
    const settings = "SELECT current_setting('autoinstall_known_extensions') AS install, current_setting('autoload_known_extensions') AS load";
    expect(await file.rows(settings)).toEqual([{ install: false, load: false }]);
  });

  it('loads DuckDB from its package, by name: not from a build of mkt, which the sources need not have', () => {
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('duckdb'));
    expect(loaded).toContainEqual(expect.stringMatching(/\/node_modules\/@duckdb\/node-api\/lib\/index\.js$/));
    expect(loaded.filter((file) => !file.includes('/node_modules/@duckdb/'))).toEqual([]);
  });

  it('refuses to read a type it does not know, rather than misread it', async () => {
    await expect(file.rows('SELECT 1.5::DOUBLE AS d')).rejects.toThrow('mkt reads no DuckDB column of type DOUBLE');
  });
});

// `results --offline` starts DuckDB before the program is built, and attaches the file when it
// opens it (src/main.ts): the file must read as it does when opened on its own.
describe('DuckDBFile read through a DuckDB started ahead', () => {
  async function fileWithATable(): Promise<string> {
    const path = join(tempDir('mkt-duckdb-'), "it's.duckdb");
    const writer = await DuckDBFile.open(path, { readOnly: false });
    await writer.run("CREATE TABLE t (a VARCHAR); INSERT INTO t VALUES ('x'); CREATE VIEW v AS SELECT a || a AS aa FROM t");
    await writer.close();
    return path;
  }

  it("reads the file's tables and views by their own names, through @duckdb/node-api too, and only for the first file opened", async () => {
    const path = await fileWithATable();
    startDuckDB();
    const attached = await DuckDBFile.open(path, { readOnly: true });
    const opened = await DuckDBFile.open(path, { readOnly: true });
    try {
      expect(await attached.rows('SELECT current_database() AS db, a, (SELECT aa FROM v) AS aa FROM t')).toEqual([{ db: 'mirror', a: 'x', aa: 'xx' }]);
      expect((await attached.withConnection((connection) => connection.runAndReadAll('SELECT a FROM t'))).getRowObjects()).toEqual([{ a: 'x' }]);
      expect(await opened.rows('SELECT current_database() AS db')).toEqual([{ db: "it's" }]);
      expect(await attached.rows("SELECT current_setting('autoinstall_known_extensions') AS install, current_setting('autoload_known_extensions') AS load")).toEqual([
        { install: false, load: false },
      ]);
      await expect(attached.run("INSERT INTO t VALUES ('y')")).rejects.toThrow(/read-only/);
    } finally {
      await attached.close();
      await opened.close();
    }
  });

  it('fails as an open does for a file that is not DuckDB', async () => {
    const path = join(tempDir('mkt-duckdb-'), 'not.duckdb');
    writeFileSync(path, 'hello');
    const message = await DuckDBFile.open(path, { readOnly: true }).catch((error: Error) => error.message);
    startDuckDB();
    await expect(DuckDBFile.open(path, { readOnly: true })).rejects.toThrow(message);
    expect(message).toMatch(/not a valid DuckDB database file/);
  });
});
