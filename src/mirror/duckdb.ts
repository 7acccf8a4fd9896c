import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import type * as DuckDB from '@duckdb/node-api';
import { MktError } from '../core/errors.js';

export type DuckDBModule = typeof DuckDB;

/** DuckDB's optional package, loaded by name and only by the mirror's commands: with require, since it is CommonJS and loadDuckDB is synchronous. */
const require = createRequire(import.meta.url);

/** What mkt's own queries bind, and read back: text, whole numbers, booleans and nulls. */
export type SqlValue = string | number | bigint | boolean | null;

let api: DuckDBModule | undefined;

/** `@duckdb/node-api`, DuckDB's JavaScript API: throws MktError when it is not installed. */
export function loadDuckDB(): DuckDBModule {
  api ??= installed(() => require('@duckdb/node-api') as DuckDBModule);
  return api;
}

/** How often a close interrupts the calls still running, until none is. */
const INTERRUPT_AGAIN_MS = 20;

/** How every DuckDB of mkt starts: it installs and loads no extension on its own, which would fetch it from the network into ~/.duckdb. */
const CONFIG = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };

let started: Promise<DuckDB.DuckDBInstance> | undefined;

/**
 * Begins starting DuckDB, for `results --offline`, before the program is built: DuckDB starts on
 * its own threads while this one builds the program and parses the command line. The file is
 * attached when the command opens it (DuckDBFile.open). Nothing is said here: a DuckDB that is
 * not installed, or fails to start, is the command's to report when it opens the file.
 */
export function startDuckDB(): void {
  // One not yet taken (a command that failed before it opened its file, in a process that runs
  // several) is used by the next; a second would leave the first open.
  if (started) return;
  let duckdb: DuckDBModule;
  try {
    duckdb = loadDuckDB();
  } catch {
    return;
  }
  started = duckdb.DuckDBInstance.create(':memory:', CONFIG);
  started.catch(() => {});
}

/** The DuckDB startDuckDB began, for the first file read: later ones start their own. */
function takeStarted(): Promise<DuckDB.DuckDBInstance> | undefined {
  const taken = started;
  started = undefined;
  return taken;
}

/** Text as an SQL string literal. */
export function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * One DuckDB file and a connection to it, through `@duckdb/node-api`: mkt's own queries (a
 * mirror's header, counts, pages of records as JSON, ids), a sync's appenders and the answers of
 * `mkt sql` all go through the one connection, one at a time, and its close waits for the calls
 * still running.
 */
export class DuckDBFile {
  /** The end of the last operation begun (inTurn): the next waits for it. */
  private lastTurn: Promise<unknown> = Promise.resolve();
  /** Operations begun or waiting their turn, and not ended. */
  private turns = 0;
  /** Calls running on DuckDB's threads: the connection is closed only once none is. */
  private readonly running = new Set<Promise<unknown>>();
  /** Set when close begins, and when it has closed the connection. */
  private closing = false;
  private closed = false;

  private constructor(
    private readonly instance: DuckDB.DuckDBInstance,
    private readonly connection: DuckDB.DuckDBConnection,
  ) {}

  /** Opens a file: throws MktError when DuckDB is not installed, and DuckDB's error when it cannot open the file. */
  static async open(path: string, options: { readOnly: boolean }): Promise<DuckDBFile> {
    const started = options.readOnly ? takeStarted() : undefined;
    if (started) return DuckDBFile.attach(await started, path);
    const { DuckDBInstance } = loadDuckDB();
    return DuckDBFile.connect(await DuckDBInstance.create(path, options.readOnly ? { ...CONFIG, access_mode: 'READ_ONLY' } : CONFIG));
  }

  /** A file read through the DuckDB that startDuckDB began: attached, and made the connection's default. */
  private static async attach(instance: DuckDB.DuckDBInstance, path: string): Promise<DuckDBFile> {
    const file = await DuckDBFile.connect(instance);
    try {
      await file.run(`ATTACH ${sqlText(path)} AS mirror (READ_ONLY); USE mirror`);
    } catch (error) {
      await file.close();
      throw error;
    }
    return file;
  }

  private static async connect(instance: DuckDB.DuckDBInstance): Promise<DuckDBFile> {
    try {
      return new DuckDBFile(instance, await instance.connect());
    } catch (error) {
      instance.closeSync();
      throw error;
    }
  }

  /** Runs SQL: several statements when nothing is bound, one when values are. */
  async run(sql: string, values?: readonly SqlValue[]): Promise<void> {
    await this.inTurn(() => this.execute(sql, values));
  }

  /** A query's answer, read whole, each row an object of its columns. */
  rows(sql: string, values?: readonly SqlValue[]): Promise<Record<string, SqlValue>[]> {
    return this.inTurn(async () => {
      const result = await this.execute(sql, values);
      const names = result.columnNames();
      const rows: Record<string, SqlValue>[] = [];
      await this.readChunks(result, (columns, size) => {
        for (let row = 0; row < size; row++) rows.push(Object.fromEntries(names.map((name, index) => [name, columns[index]![row]!])));
      });
      return rows;
    });
  }

  /** The names of a query's columns, its rows unread. */
  columnNames(sql: string): Promise<string[]> {
    return this.inTurn(async () => (await this.execute(sql, undefined)).columnNames());
  }

  /** The first column of a query's answer, read whole. */
  column(sql: string, values?: readonly SqlValue[]): Promise<SqlValue[]> {
    return this.inTurn(async () => {
      const column: SqlValue[] = [];
      await this.readChunks(await this.execute(sql, values), (columns) => column.push(...columns[0]!));
      return column;
    });
  }

  /**
   * The first column of a query's answer, chunk by chunk as DuckDB makes them, without holding
   * the answer. A streamed answer that fails part way ends as if it were complete: DuckDB's
   * fetch_chunk tells no error. The caller counts what it read.
   */
  stream(sql: string, onChunk: (values: SqlValue[]) => void): Promise<void> {
    return this.inTurn(() => this.withStatement(sql, [], async (statement) => this.readChunks(await this.call(() => statement.stream()), (columns) => onChunk(columns[0]!))));
  }

  /** Runs `work` on the connection, as a call the close waits for: a sync's appenders, the answers of `mkt sql`. */
  withConnection<T>(work: (connection: DuckDB.DuckDBConnection) => Promise<T>): Promise<T> {
    return this.inTurn(() => this.call(() => work(this.connection)));
  }

  /**
   * Ends the calls running now, which fail, and waits for them. An interrupt that comes before
   * DuckDB has begun a query is lost (a Ctrl-C while `mkt sql` prepares its statement): it is
   * said again until each of them has ended. Calls begun since (a sync's clean-up) are left to run.
   */
  async interrupt(): Promise<void> {
    if (this.running.size === 0) return;
    let ended = false;
    const ending = Promise.allSettled(this.running).then(() => {
      ended = true;
    });
    while (!ended && !this.closed) {
      this.connection.interrupt();
      await Promise.race([ending, delay(INTERRUPT_AGAIN_MS, undefined, { ref: false })]);
    }
  }

  /**
   * Ends the calls still running (pages read ahead of a `| head`, a query at Ctrl-C), waits for
   * them, then closes: a connection closed under a running query deadlocked DuckDB's thread on
   * its own lock, or crashed the process. A call begun once closing has begun fails at once.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.interrupt();
    this.closed = true;
    this.connection.closeSync();
    this.instance.closeSync();
  }

  /**
   * Runs one of the file's operations once those begun before it have ended: DuckDB runs one
   * query at a time on a connection, and one begun while another's answer is still being read
   * ends that answer as if it were complete. Begun at once when none is under way, so that a
   * close or an interrupt that follows finds it running.
   */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const ran = this.turns === 0 ? work() : this.lastTurn.then(work);
    this.turns++;
    const ended = ran.finally(() => {
      this.turns--;
    });
    this.lastTurn = ended.catch(() => {});
    return ended;
  }

  /** A call that runs on DuckDB's threads, kept in `running` until it settles; refused once closing has begun. */
  private call<T>(work: () => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(new Error('the mirror was closed'));
    const running = work();
    this.running.add(running);
    const settled = (): void => {
      this.running.delete(running);
    };
    running.then(settled, settled);
    return running;
  }

  private execute(sql: string, values: readonly SqlValue[] | undefined): Promise<DuckDB.DuckDBResult> {
    if (!values?.length) return this.call(() => this.connection.run(sql));
    return this.withStatement(sql, values, (statement) => this.call(() => statement.run()));
  }

  /** Runs `work` on one statement, prepared with its values bound, and lets the statement go when `work` is done. */
  private async withStatement<T>(sql: string, values: readonly SqlValue[], work: (statement: DuckDB.DuckDBPreparedStatement) => Promise<T>): Promise<T> {
    const statement = await this.call(() => this.connection.prepare(sql));
    try {
      values.forEach((value, index) => bind(statement, index + 1, value));
      return await work(statement);
    } finally {
      statement.destroySync();
    }
  }

  /** Each chunk of an answer, as its columns' values: of the types SqlValue holds, and no other. */
  private async readChunks(result: DuckDB.DuckDBResult, onChunk: (columns: SqlValue[][], size: number) => void): Promise<void> {
    const { DuckDBTypeId } = loadDuckDB();
    for (const type of result.columnTypes()) {
      // Any other type (a DOUBLE, a timestamp) would reach the caller as something SqlValue does not say.
      const name = DuckDBTypeId[type.typeId];
      if (!READ_TYPES.has(name)) throw new Error(`mkt reads no DuckDB column of type ${name}`);
    }
    for (let chunk = await this.call(() => result.fetchChunk()); chunk && chunk.rowCount > 0; chunk = await this.call(() => result.fetchChunk())) {
      onChunk(Array.from({ length: chunk.columnCount }, (_, index) => chunk.getColumnValues(index) as SqlValue[]), chunk.rowCount);
    }
  }
}

/** The DuckDB types mkt's own queries read, as SqlValue has them: text, INTEGER as a number, BIGINT as a bigint, booleans. */
const READ_TYPES = new Set(['VARCHAR', 'INTEGER', 'BIGINT', 'BOOLEAN']);

/** Binds a value as @duckdb/node-api would infer its type, but a bigint as BIGINT, not HUGEINT. */
function bind(statement: DuckDB.DuckDBPreparedStatement, index: number, value: SqlValue): void {
  if (value === null) statement.bindNull(index);
  else if (typeof value === 'string') statement.bindVarchar(index, value);
  else if (typeof value === 'boolean') statement.bindBoolean(index, value);
  else if (typeof value === 'bigint') statement.bindBigInt(index, value);
  else if (Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31) statement.bindInteger(index, value);
  else if (Number.isSafeInteger(value)) statement.bindBigInt(index, BigInt(value));
  else statement.bindDouble(index, value);
}

/** A step that finds DuckDB's package: missing is DuckDB not installed. */
function installed<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw new MktError(`the mirror needs DuckDB (@duckdb/node-api), which is not installed for ${process.platform}-${process.arch}`, {
      hint: 'Reinstall mkt with its optional dependencies (npm install --include=optional); every other command works without it.',
      cause: error,
    });
  }
}
