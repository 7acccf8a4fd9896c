import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type * as DuckDB from '@duckdb/node-api';
import type * as DuckDBBindings from '@duckdb/node-bindings';
import { MktError } from '../errors.js';

export type DuckDBModule = typeof DuckDB;
type Bindings = typeof DuckDBBindings;

/**
 * DuckDB's optional packages, loaded only by the mirror's commands: with require rather than
 * import(), since from ESM Node first scans a CommonJS file for its exports (docs/performance.md).
 */
const require = createRequire(import.meta.url);

/** What mkt's own queries bind, and read back: text, whole numbers, booleans and nulls. */
export type SqlValue = string | number | bigint | boolean | null;

let api: DuckDBModule | undefined;

/** Where the build bundled @duckdb/node-api, from dist/bundle, dist/mirror and src/mirror alike: tests run the sources, after a build. */
const API_BUNDLE = '../../dist/vendor/duckdb-node-api.cjs';

/** `@duckdb/node-api`, DuckDB's JavaScript API, as the build bundled it (scripts/bundle.js). */
export function loadDuckDB(): DuckDBModule {
  api ??= installed(() => require(API_BUNDLE) as DuckDBModule);
  return api;
}

/**
 * `@duckdb/node-bindings`, DuckDB's native library, loaded from its platform's package when that
 * is the only one installed for this platform and architecture: the library's own entry first
 * asks detect-libc whether this Linux is musl, whose modules and check took 5-6 ms of a
 * `results --offline` page before DuckDB could begin (docs/performance.md, "The mirror"). The
 * package is found from the library's own directory, as its entry finds it, so both load one
 * module. Anything else (a musl package beside it, none, a failed load) goes through the entry.
 */
function nativeBindings(): Bindings {
  const fromEntry = createRequire(require.resolve('@duckdb/node-bindings'));
  const platformPackage = `@duckdb/node-bindings-${process.platform}-${process.arch}`;
  try {
    fromEntry.resolve(`${platformPackage}-musl/duckdb.node`);
  } catch {
    try {
      return fromEntry(`${platformPackage}/duckdb.node`) as Bindings;
    } catch {
      // the entry decides, and reports
    }
  }
  return require('@duckdb/node-bindings') as Bindings;
}

/** How often a close interrupts the calls still running, until none is. */
const INTERRUPT_AGAIN_MS = 20;

/** A DuckDB begun by startDuckDB, with no file yet. */
interface Started {
  bindings: Bindings;
  database: Promise<DuckDBBindings.Database>;
}

let started: Started | undefined;

/**
 * Begins starting DuckDB, for `results --offline`, before the program is built: its native
 * library loads, and DuckDB starts on its own threads (20-25 ms, whatever the file) while this
 * one builds the program and parses the command line. The file is attached when the command opens
 * it (DuckDBFile.open). Nothing is said here: a DuckDB that is not installed, or fails to start,
 * is the command's to report when it opens the file.
 */
export function startDuckDB(): void {
  // One not yet taken (a command that failed before it opened its file, in a process that runs
  // several) is used by the next; a second would leave the first open.
  if (started) return;
  let bindings: Bindings;
  try {
    bindings = nativeBindings();
  } catch {
    return;
  }
  const database = bindings.open(':memory:', configOf(bindings));
  database.catch(() => {});
  started = { bindings, database };
}

/** How every DuckDB of mkt starts: it installs and loads no extension on its own, which would fetch it from the network into ~/.duckdb. */
function configOf(bindings: Bindings): DuckDBBindings.Config {
  const config = bindings.create_config();
  bindings.set_config(config, 'autoinstall_known_extensions', 'false');
  bindings.set_config(config, 'autoload_known_extensions', 'false');
  return config;
}

/** The DuckDB startDuckDB began, for the first file read: later ones start their own. */
function takeStarted(): Started | undefined {
  const taken = started;
  started = undefined;
  return taken;
}

/** Text as an SQL string literal. */
function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * One DuckDB file and a connection to it, through `@duckdb/node-bindings`, the native library that
 * @duckdb/node-api wraps. mkt's own queries (a mirror's header, counts, pages of records as JSON,
 * ids) bind and read text, whole numbers and booleans alone, which are read here from DuckDB's C
 * API. @duckdb/node-api, which reads every type, loads only for what needs it (`api()`): a sync's
 * appenders, the answers of `mkt sql`. Loading it took 40-48 ms of a `results --offline` page
 * (docs/performance.md, "The mirror").
 */
export class DuckDBFile {
  private apiConnection: DuckDB.DuckDBConnection | undefined;
  /** Calls running on DuckDB's threads: the connection is closed only once none is. */
  private readonly running = new Set<Promise<unknown>>();
  /** Set when close begins, and when it has closed the connection. */
  private closing = false;
  private closed = false;

  private constructor(
    private readonly bindings: Bindings,
    private readonly database: DuckDBBindings.Database,
    private readonly connection: DuckDBBindings.Connection,
  ) {}

  /** Opens a file: throws MktError when DuckDB is not installed, and DuckDB's error when it cannot open the file. */
  static async open(path: string, options: { readOnly: boolean }): Promise<DuckDBFile> {
    const started = options.readOnly ? takeStarted() : undefined;
    if (started) return DuckDBFile.attach(started, path);
    const bindings = installed(nativeBindings);
    // A file written is appended to, which needs @duckdb/node-api: without it, nothing is begun.
    if (!options.readOnly) installed(() => require.resolve(API_BUNDLE));
    const config = configOf(bindings);
    if (options.readOnly) bindings.set_config(config, 'access_mode', 'READ_ONLY');
    return DuckDBFile.connect(bindings, await bindings.open(path, config));
  }

  /** A file read through the DuckDB that startDuckDB began: attached, and made the connection's default. */
  private static async attach(started: Started, path: string): Promise<DuckDBFile> {
    const file = await DuckDBFile.connect(started.bindings, await started.database);
    try {
      await file.run(`ATTACH ${sqlText(path)} AS mirror (READ_ONLY); USE mirror`);
    } catch (error) {
      await file.close();
      throw error;
    }
    return file;
  }

  private static async connect(bindings: Bindings, database: DuckDBBindings.Database): Promise<DuckDBFile> {
    try {
      return new DuckDBFile(bindings, database, await bindings.connect(database));
    } catch (error) {
      bindings.close_sync(database);
      throw error;
    }
  }

  /** Runs SQL: several statements when nothing is bound, one when values are. */
  async run(sql: string, values?: readonly SqlValue[]): Promise<void> {
    await this.execute(sql, values);
  }

  /** A query's answer, read whole, each row an object of its columns. */
  async rows(sql: string, values?: readonly SqlValue[]): Promise<Record<string, SqlValue>[]> {
    const result = await this.execute(sql, values);
    const names = Array.from({ length: this.bindings.column_count(result) }, (_, index) => this.bindings.column_name(result, index));
    const rows: Record<string, SqlValue>[] = [];
    await this.readChunks(result, (columns, size) => {
      for (let row = 0; row < size; row++) rows.push(Object.fromEntries(names.map((name, index) => [name, columns[index]![row]!])));
    });
    return rows;
  }

  /** The first column of a query's answer, read whole. */
  async column(sql: string, values?: readonly SqlValue[]): Promise<SqlValue[]> {
    const column: SqlValue[] = [];
    await this.readChunks(await this.execute(sql, values), (columns) => column.push(...columns[0]!));
    return column;
  }

  /**
   * The first column of a query's answer, chunk by chunk as DuckDB makes them, without holding
   * the answer. A streamed answer that fails part way ends as if it were complete: DuckDB's
   * fetch_chunk tells no error. The caller counts what it read.
   */
  stream(sql: string, onChunk: (values: SqlValue[]) => void): Promise<void> {
    return this.withStatement(sql, [], async (statement) =>
      this.readChunks(await this.call(() => this.bindings.execute_prepared_streaming(statement)), (columns) => onChunk(columns[0]!)));
  }

  /** The connection as @duckdb/node-api has it, which loads then. */
  api(): DuckDB.DuckDBConnection {
    this.apiConnection ??= new (loadDuckDB().DuckDBConnection)(this.connection);
    return this.apiConnection;
  }

  /** Runs `work` on the connection as @duckdb/node-api has it, as a call the close waits for. */
  withApi<T>(work: (connection: DuckDB.DuckDBConnection) => Promise<T>): Promise<T> {
    return this.call(() => work(this.api()));
  }

  /** Ends the query running now, which fails. */
  interrupt(): void {
    if (!this.closed) this.bindings.interrupt(this.connection);
  }

  /**
   * Ends the calls still running (pages read ahead of a `| head`, a query at Ctrl-C), waits for
   * them, then closes: a connection closed under a running query deadlocked DuckDB's thread on
   * its own lock, or crashed the process. A call begun once closing has begun fails at once.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    while (this.running.size > 0) {
      this.interrupt();
      // An interrupt that comes before DuckDB has begun the query is lost: it is said again until every call has ended.
      await Promise.race([Promise.allSettled(this.running), delay(INTERRUPT_AGAIN_MS, undefined, { ref: false })]);
    }
    this.closed = true;
    if (this.apiConnection) this.apiConnection.closeSync();
    else this.bindings.disconnect_sync(this.connection);
    this.bindings.close_sync(this.database);
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

  private execute(sql: string, values: readonly SqlValue[] | undefined): Promise<DuckDBBindings.Result> {
    if (!values?.length) return this.call(() => this.bindings.query(this.connection, sql));
    return this.withStatement(sql, values, (statement) => this.call(() => this.bindings.execute_prepared(statement)));
  }

  /** Runs `work` on one statement, prepared with its values bound, and lets the statement go when `work` is done. */
  private async withStatement<T>(sql: string, values: readonly SqlValue[], work: (statement: DuckDBBindings.PreparedStatement) => Promise<T>): Promise<T> {
    const statement = await this.call(() => this.bindings.prepare(this.connection, sql));
    try {
      values.forEach((value, index) => this.bind(statement, index + 1, value));
      return await work(statement);
    } finally {
      this.bindings.destroy_prepare_sync(statement);
    }
  }

  /** Binds a value as @duckdb/node-api would infer its type, but a bigint as BIGINT, not HUGEINT. */
  private bind(statement: DuckDBBindings.PreparedStatement, index: number, value: SqlValue): void {
    const { bindings } = this;
    if (value === null) bindings.bind_null(statement, index);
    else if (typeof value === 'string') bindings.bind_varchar(statement, index, value);
    else if (typeof value === 'boolean') bindings.bind_boolean(statement, index, value);
    else if (typeof value === 'bigint') bindings.bind_int64(statement, index, value);
    else if (Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31) bindings.bind_int32(statement, index, value);
    else if (Number.isSafeInteger(value)) bindings.bind_int64(statement, index, BigInt(value));
    else bindings.bind_double(statement, index, value);
  }

  /** Each chunk of an answer, as its columns' values. */
  private async readChunks(result: DuckDBBindings.Result, onChunk: (columns: SqlValue[][], size: number) => void): Promise<void> {
    const { bindings } = this;
    const types = Array.from({ length: bindings.column_count(result) }, (_, index) => bindings.column_type(result, index));
    const fetch = () => this.call(() => bindings.fetch_chunk(result));
    for (let chunk = await fetch(); chunk; chunk = await fetch()) {
      const size = bindings.data_chunk_get_size(chunk);
      if (size === 0) break;
      onChunk(
        types.map((type, index) => this.readVector(bindings.data_chunk_get_vector(chunk, index), type, size)),
        size,
      );
    }
  }

  /**
   * A column of a chunk, from the vector's data as DuckDB's C API lays it out (duckdb.h): a
   * validity mask of 64-bit words, a bit a row, set when the row is not null (none when no row
   * is); BOOLEAN, INTEGER and BIGINT values in the machine's byte order; and each VARCHAR in 16
   * bytes, its length in the first 4, then the text itself when it fits in 12, or else a pointer
   * to it in the last 8.
   */
  private readVector(vector: DuckDBBindings.Vector, type: DuckDBBindings.Type, size: number): SqlValue[] {
    const { bindings } = this;
    const width = valueWidth(bindings, type);
    if (width === undefined) throw new Error(`mkt reads no DuckDB column of type ${bindings.Type[type]}`);
    const data = bindings.vector_get_data(vector, width * size);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const validity = bindings.vector_get_validity(vector, Math.ceil(size / 64) * 8) as Uint8Array | null;
    const values = new Array<SqlValue>(size);
    for (let row = 0; row < size; row++) {
      if (validity && (validity[validityByte(row)]! & (1 << (row & 7))) === 0) {
        values[row] = null;
        continue;
      }
      const at = row * width;
      if (type === bindings.Type.VARCHAR) {
        const length = view.getUint32(at, LITTLE_ENDIAN);
        const text = length <= 12 ? data.subarray(at + 4, at + 4 + length) : bindings.get_data_from_pointer(data.buffer as ArrayBuffer, data.byteOffset + at + 8, length);
        values[row] = UTF8.decode(text);
      } else if (type === bindings.Type.BIGINT) values[row] = view.getBigInt64(at, LITTLE_ENDIAN);
      else if (type === bindings.Type.INTEGER) values[row] = view.getInt32(at, LITTLE_ENDIAN);
      else values[row] = view.getUint8(at) !== 0;
    }
    return values;
  }
}

/** The bytes of a value of each type readVector reads. */
function valueWidth(bindings: Bindings, type: DuckDBBindings.Type): number | undefined {
  switch (type) {
    case bindings.Type.BOOLEAN:
      return 1;
    case bindings.Type.INTEGER:
      return 4;
    case bindings.Type.BIGINT:
      return 8;
    case bindings.Type.VARCHAR:
      return 16;
    default:
      return undefined;
  }
}

const LITTLE_ENDIAN = endianness() === 'LE';
const UTF8 = new TextDecoder();

/** The byte of a validity mask that holds a row's bit: its 64-bit words are in the machine's byte order. */
function validityByte(row: number): number {
  return LITTLE_ENDIAN ? row >> 3 : (row >> 6) * 8 + 7 - ((row & 63) >> 3);
}

/** A step that finds one of DuckDB's packages: either missing is DuckDB not installed. */
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
