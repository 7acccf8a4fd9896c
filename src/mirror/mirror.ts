import { rmSync, type Stats, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBAppender, DuckDBDataChunk, DuckDBResult, StatementType } from '@duckdb/node-api';
import { parseAmount } from '../api/amounts.js';
import { IdSet } from '../api/id-set.js';
import { RECORD_ID_FIELDS, type ServiceShape } from '../api/record-id.js';
import { makeDirectory } from '../config/store.js';
import { abortReason, MktError, UsageError } from '../core/errors.js';
import { isSystemError, systemErrorText } from '../output/output-path.js';
import { DuckDBFile, type DuckDBModule, loadDuckDB, type SqlValue } from './duckdb.js';
import { MIRROR_FIELDS, mirrorIndex, RecordReader, recordText, rowAsJson, type StoredRecord } from './rows.js';
import { createSchema, MIRROR_LAYOUT } from './schema.js';

/** Which service and which filters a mirror holds the answer of: fixed at its first sync. */
export interface MirrorIdentity {
  /** The base URL, or `sandbox` for the in-process sandbox of `--sandbox`. */
  service: string;
  /** The filters as canonical JSON (filtersText, src/mirror/mirror-filters.ts). */
  filters: string;
}

/** The service's total_records and newest record, from its newest page: what a full walk compares before and after itself. */
export interface ServiceState {
  total: number;
  /** The newest record's id; undefined when there are none. */
  newest: string | undefined;
}

/** A full walk left unfinished: where the next sync carries on. */
export interface PendingWalk extends MirrorIdentity {
  pageSize: number;
  nextPage: number;
  /** The service when the walk began; undefined for a walk left by an mkt that did not note it. */
  start: ServiceState | undefined;
}

/** The tables records are appended to: the mirror's own, or the full walk's staging table. */
type RecordTable = 'results' | 'mkt_walk_results';

/** The tables that hold records, each in the layout of its records' shape (src/mirror/schema.ts). */
type RecordsTable = RecordTable | 'mkt_removed_results';

/** Where each table of records keeps the odd spellings of its timestamps (keepTimestampTexts). */
const TIMESTAMP_TEXT_TABLE: Record<RecordTable, string> = { results: 'mkt_timestamp_text', mkt_walk_results: 'mkt_walk_timestamp_text' };

/** Said when a sync stops part way: what it committed stays. */
export const KEPT_BY_THE_MIRROR = 'The mirror keeps what this sync committed; the next `mkt sync` carries on.';

/** DuckDB's errors that say the file (a full disk, a damaged block) or memory failed, not the SQL. */
export function isFileFailure(error: unknown): boolean {
  return /^(IO|Out of Memory) Error:/.test(duckdbMessage(error));
}

/** How much a sync may write to DuckDB's log before DuckDB moves it into the file. */
const CHECKPOINT_THRESHOLD = '1GB';

/** A DuckDB error as DuckDB words it: every line, its hints (`Did you mean "results"?`) and the place in the query included. */
export function duckdbWholeMessage(error: unknown): string {
  // What @duckdb/node-api puts before the error of a query it splits into statements.
  return (error instanceof Error ? error.message : String(error)).replace(/^Failed to extract statements: /, '').trimEnd();
}

/** A DuckDB error in one line: its first, without DuckDB's hint lines. */
export function duckdbMessage(error: unknown): string {
  const message = duckdbWholeMessage(error);
  return message.split('\n')[0] ?? message;
}

/**
 * One mirror file, open for reading (a read-only connection) or for a sync (read-write, which
 * DuckDB lets one process hold at a time: that lock is what keeps two syncs from both writing).
 */
export class Mirror {
  private constructor(
    readonly path: string,
    private readonly writable: boolean,
    private readonly file: DuckDBFile,
    private readonly signal: AbortSignal | undefined,
    /** The file and its log when this open made the file (a first sync's, which leaves none behind when it fails: discardIfUnsynced), the log only if it was not there. */
    private readonly made: readonly string[],
  ) {
    // Ctrl-C ends a query at once: the process could not exit while DuckDB ran one to its end.
    signal?.addEventListener('abort', () => {
      if (!this.closed) void this.file.interrupt();
    }, { once: true });
  }

  /** Opens the file; `signal`, when it aborts, interrupts the query running then, which fails with the signal's reason. */
  static async open(path: string, options: { write: boolean; signal?: AbortSignal }): Promise<Mirror> {
    const stats = checkMirrorPath(path);
    if (!options.write && stats === undefined) {
      throw new MktError(`no mirror at ${path}`, { hint: 'Run `mkt sync` to make one, or name another with --mirror or MKT_MIRROR.' });
    }
    // DuckDB reads the log beside the file when there is one, and would wait as long on a named pipe
    // there. A device it reads or writes, and meets its errors (a link to /dev/full: a full disk).
    const log = statOrUndefined(`${path}.wal`);
    if (log && !log.isFile() && !log.isCharacterDevice() && !log.isBlockDevice()) {
      throw new UsageError(`${path}.wal is ${whatIsAt(log)}, not the log of a mirror`, { hint: `Remove ${path}.wal, or name another mirror with --mirror.` });
    }
    if (options.write) {
      try {
        makeDirectory(dirname(path));
      } catch (error) {
        throw new MktError(`cannot make the directory of ${path}: ${isSystemError(error) ? systemErrorText(error) : duckdbMessage(error)}`, {
          hint: 'Name a mirror you can write with --mirror or MKT_MIRROR.',
        });
      }
    }
    let file: DuckDBFile;
    try {
      file = await DuckDBFile.open(path, { readOnly: !options.write });
    } catch (error) {
      if (error instanceof MktError) throw error;
      const message = duckdbMessage(error);
      const holder = /Conflicting lock is held in .*?\(PID (\d+)\)/.exec(message);
      // Readers share the file: a reader is kept out only by a writer (a sync), a sync by any other process.
      if (holder && options.write) {
        throw new MktError(`another process is using ${path} (pid ${holder[1]})`, { hint: 'Run the sync again when it has finished.' });
      }
      if (holder) throw new MktError(`a sync is writing ${path} (pid ${holder[1]})`, { hint: 'Run the command again when it has finished.' });
      throw new MktError(`cannot open the mirror ${path}: ${message}`);
    }
    const made = stats === undefined ? [path, ...(log === undefined ? [`${path}.wal`] : [])] : [];
    const mirror = new Mirror(path, options.write, file, options.signal, made);
    try {
      if (options.write) {
        const hasResults = await mirror.checkNotAnotherDatabase();
        await mirror.run(createSchema(hasResults ? await mirror.tableShape('results') : 'interface'));
        // Each checkpoint DuckDB makes when its log grows writes a walk's staging table's growing
        // last row group again: a sync checkpoints once, when the file closes.
        await mirror.run(`SET checkpoint_threshold = '${CHECKPOINT_THRESHOLD}'`);
      }
      await mirror.readHeader();
    } catch (error) {
      // What failed is what is said, not the close after it.
      await mirror.discardIfUnsynced().catch(() => {});
      await mirror.close().catch(() => {});
      throw error;
    }
    return mirror;
  }

  /**
   * After a first sync failed: the file this open made is removed, with its log, when it holds
   * no record, staged or synced, so that no mirror is left behind by a sync that never began.
   * One that committed pages of its walk is kept: the next sync carries on from them. Whether
   * it removed them.
   */
  async discardIfUnsynced(): Promise<boolean> {
    if (this.made.length === 0 || this.closed) return false;
    // Straight to the file: after Ctrl-C the mirror's own queries refuse to start. A file this
    // sync made and cannot read holds nothing a next sync could carry on from.
    const held = await this.file.rows('SELECT ((SELECT count(*) FROM results) + (SELECT count(*) FROM mkt_walk_results))::BIGINT AS n').then(([row]) => row?.n, () => 0n);
    if (held !== 0n) return false;
    await this.close();
    for (const file of this.made) rmSync(file, { force: true });
    return true;
  }

  private closed = false;
  private recorded: MirrorIdentity | undefined;
  private recordedShape: ServiceShape | undefined;
  /** The shape whose column set `results` has: the interface's for a mirror a sync has not yet given records of another. */
  private resultsShape: ServiceShape = 'interface';
  private presentColumns: ReadonlySet<string> = new Set(MIRROR_FIELDS.interface.map((field) => field.name));
  private rowJson = rowAsJson('interface', this.presentColumns);

  /** Closes the file (once), when the queries still running have ended: DuckDB writes its log into it, and the lock is let go. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.file.close();
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** The identity recorded at the first sync, as it was when the mirror was opened: undefined before that sync. */
  get identity(): MirrorIdentity | undefined {
    return this.recorded;
  }

  /** The shape of the records, recorded at the first sync (a mirror an earlier mkt made holds the interface's): undefined before that sync. */
  get shape(): ServiceShape | undefined {
    return this.recordedShape;
  }

  /** A row of `results r LEFT JOIN mkt_timestamp_text t` as the JSON array RecordReader reads (rowAsJson, for the columns this mirror has). */
  get rowAsJson(): string {
    return this.rowJson;
  }

  /** The identity, for a command that answers from the mirror: one whose first sync has not finished answers nothing. */
  syncedIdentity(): MirrorIdentity {
    if (!this.recorded) throw new MktError(`the mirror ${this.path} has not finished its first sync`, { hint: 'Run `mkt sync` to finish it.' });
    return this.recorded;
  }

  async count(table: RecordTable = 'results'): Promise<number> {
    const [row] = await this.rows(`SELECT count(*)::BIGINT AS n FROM ${table}`);
    return Number(row?.n ?? 0);
  }

  /** The shape whose column set a table of records has (src/mirror/schema.ts). */
  async tableShape(table: RecordsTable): Promise<ServiceShape> {
    return (await this.columnsOf(table)).has(RECORD_ID_FIELDS['2026']) ? '2026' : 'interface';
  }

  /**
   * The columns of a table, which must exist: from an answer of no rows, which costs a fraction
   * of what a question to the catalog's views does, and a sync asks at each page it appends.
   */
  private async columnsOf(table: string): Promise<Set<string>> {
    return new Set(await this.onFile(() => this.file.columnNames(`SELECT * FROM ${table} LIMIT 0`)));
  }

  /**
   * Makes an empty table of records anew in the layout of the shape, when it has another's:
   * `results` with its view and mkt_removed_results, whose records of the other shape do not fit
   * the new column set. Within a transaction.
   */
  async layOut(table: RecordTable, shape: ServiceShape): Promise<void> {
    if ((await this.tableShape(table)) === shape) return;
    if ((await this.count(table)) > 0) throw this.failure(new Error(`${table} holds records of another shape than ${shape}`));
    const tables = table === 'results' ? ['results', 'mkt_removed_results'] : [table];
    if (table === 'results') await this.run('DROP VIEW IF EXISTS results_with_values');
    for (const name of tables) await this.run(`DROP TABLE ${name}`);
    await this.run(createSchema(shape, table === 'results' ? shape : await this.tableShape('results')));
    if (table === 'results') await this.readColumns();
  }

  /** The newest created_on, in microseconds, or undefined when the mirror holds nothing, or records of the 2026 shape, which have none. */
  async newestCreatedOn(): Promise<bigint | undefined> {
    if (this.resultsShape === '2026') return undefined;
    const [row] = await this.rows('SELECT epoch_us(max(created_on)) AS newest FROM results');
    return (row?.newest as bigint | null) ?? undefined;
  }

  /**
   * The newest records as recordText, newest first, ties by id: as the service's first page
   * orders them. Records of the 2026 shape, which have no created_on, cannot be put in that
   * order: none.
   */
  async newestRecordTexts(limit: number): Promise<string[]> {
    if (this.resultsShape === '2026') return [];
    return this.recordTexts(`SELECT rowid FROM results ORDER BY created_on DESC, id DESC LIMIT ${limit}`, [], 'ORDER BY r.created_on DESC, r.id DESC');
  }

  /** The records of `results` with these ids, as recordText by id: those the mirror does not hold are absent. */
  async recordTextsById(ids: readonly string[]): Promise<Map<string, string>> {
    const byId = new Map<string, string>();
    if (ids.length === 0) return byId;
    const texts = await this.recordTexts(`SELECT rowid FROM results WHERE ${this.idColumn} IN (${ids.map((_, index) => `$${index + 1}`).join(', ')})`, [...ids]);
    for (const text of texts) byId.set((JSON.parse(text) as string[])[0] as string, text);
    return byId;
  }

  /**
   * Every id of a table, streamed, so that DuckDB's answer and the set are not both held whole. A
   * streamed answer that fails part way ends as if complete (see answer), so the ids read are
   * counted against the table's rows.
   */
  async ids(table: RecordTable): Promise<IdSet> {
    const ids = new IdSet();
    let read = 0;
    const id = RECORD_ID_FIELDS[await this.tableShape(table)];
    await this.onFile(() =>
      this.file.stream(`SELECT ${id} FROM ${table}`, (chunk) => {
        for (const id of chunk) ids.add(id as string);
        read += chunk.length;
      }),
    );
    const rows = await this.count(table);
    if (read !== rows) throw this.failure(new Error(`the ids of ${table} stopped at ${read} of ${rows} rows`));
    return ids;
  }

  async pendingWalk(): Promise<PendingWalk | undefined> {
    const [row] = await this.rows('SELECT service, filters, page_size, next_page, total_records, newest_id FROM mkt_walk');
    if (!row) return undefined;
    return {
      service: row.service as string,
      filters: row.filters as string,
      pageSize: row.page_size as number,
      nextPage: row.next_page as number,
      start: typeof row.total_records === 'bigint' ? { total: Number(row.total_records), newest: (row.newest_id as string | null) ?? undefined } : undefined,
    };
  }

  /**
   * Runs `work` in one transaction: all of it is committed, or none. Anything else run on the
   * mirror before it ends runs within it, so a caller asks nothing else meanwhile (a sync reading
   * the mirror first settles the commit under way).
   */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    await this.run('BEGIN TRANSACTION');
    try {
      const result = await work();
      await this.run('COMMIT');
      return result;
    } catch (error) {
      await this.file.run('ROLLBACK').catch(() => {});
      throw error;
    }
  }

  /** Appends records to `table`, and the amounts they bring to mkt_amounts. Call within a transaction. */
  async append(table: RecordTable, records: readonly StoredRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.layOut(table, (records[0] as StoredRecord).shape);
    await this.onFile(async () => {
      const duckdb = loadDuckDB();
      await this.appendRows(table, (appender) => {
        for (const record of records) {
          appendValues(appender, record, duckdb);
          appender.endRow();
        }
      });
      await this.keepTimestampTexts(TIMESTAMP_TEXT_TABLE[table], records);
      await this.addAmounts(records);
    });
  }

  run(sql: string, values?: SqlValue[]): Promise<void> {
    return this.onFile(() => this.file.run(sql, values));
  }

  rows(sql: string, values?: SqlValue[]): Promise<Record<string, SqlValue>[]> {
    return this.onFile(() => this.file.rows(sql, values));
  }

  /** The first column of a query's answer (none when it has no rows). */
  column(sql: string, values?: SqlValue[]): Promise<SqlValue[]> {
    return this.onFile(() => this.file.column(sql, values));
  }

  /**
   * A query's whole answer, for `mkt sql`: its errors are DuckDB's, for the caller to tell the
   * query's own from the file's (isFileFailure). The answer is read whole before a row is
   * written: a streamed answer that fails part way ends as if it were complete, since DuckDB's
   * fetch_chunk, under @duckdb/node-api's fetchChunk, does not read its error (duckdb_result_error).
   */
  answer(sql: string, checkStatement: (type: StatementType) => void): Promise<DuckDBResult> {
    this.throwIfAborted();
    return this.file.withConnection(async (connection) => {
      const statements = await connection.extractStatements(sql);
      let result: DuckDBResult | undefined;
      // Each statement is prepared once those before it have run: the later may use what they made.
      for (let index = 0; index < statements.count; index++) {
        const statement = await statements.prepare(index);
        try {
          checkStatement(statement.statementType);
          result = await statement.run();
        } finally {
          statement.destroySync();
        }
      }
      if (!result) throw new Error('the query holds no SQL statement');
      return result;
    });
  }

  /** The next chunk of an answer, as the close waits for: none at its end. */
  nextChunk(answer: DuckDBResult): Promise<DuckDBDataChunk | null> {
    return this.file.withConnection(() => answer.fetchChunk());
  }

  /**
   * Keeps the connection's queries to the mirror (`mkt sql`): no other file read or written,
   * nothing from the network, no extension loaded (none is installed or loaded on its own:
   * DuckDBFile), and DuckDB's settings locked, so that none of that is turned back on and no log
   * is written (log_query_path, which DuckDB lets write even the mirror's own files). COPY and
   * the like, which DuckDB still lets write the mirror's own files, are the caller's to refuse
   * (answer's checkStatement).
   */
  confine(): Promise<void> {
    return this.run('SET enable_external_access = false; SET lock_configuration = true');
  }

  /** What a DuckDB call on the file threw, as mkt says it: with the file, and for a sync what is kept; or why it was interrupted. */
  failure(error: unknown): MktError {
    if (error instanceof MktError) return error;
    if (this.signal?.aborted && this.signal.reason instanceof MktError) return this.signal.reason;
    const what = this.writable ? 'write' : 'read';
    return new MktError(`cannot ${what} the mirror ${this.path}: ${duckdbMessage(error)}`, {
      hint: this.writable ? KEPT_BY_THE_MIRROR : undefined,
      cause: error,
    });
  }

  /**
   * The records of `results` whose rowids a query chooses, in `order`, read back as the service
   * sent them, each as recordText. Chosen by rowid first: a filter on the records themselves
   * read all their columns, of every record, before it filtered.
   */
  private async recordTexts(chooseRowids: string, values: SqlValue[], order = ''): Promise<string[]> {
    return (await this.records(chooseRowids, values, order)).map(recordText);
  }

  /** The records of `results` whose rowids a query chooses, in `order`, read back as the service sent them. */
  private async records(chooseRowids: string, values: SqlValue[], order = ''): Promise<Record<string, unknown>[]> {
    const reader = new RecordReader(this.resultsShape);
    const rows = await this.column(`SELECT ${this.rowJson} FROM results r LEFT JOIN mkt_timestamp_text t ON t.id = r.${this.idColumn} WHERE r.rowid IN (${chooseRowids}) ${order}`, values);
    return rows.map((row) => reader.read(row as string));
  }

  /** The records of `results` whose id, or version_id, is `value`, by id: for the record and version commands when the service has no such endpoint. */
  recordsWhere(field: 'id' | 'version_id', value: string): Promise<Record<string, unknown>[]> {
    const column = field === 'id' ? this.idColumn : field;
    return this.records(`SELECT rowid FROM results WHERE ${column} = $1`, [value], `ORDER BY r.${this.idColumn}`);
  }

  /** The columns `results` has: a mirror an earlier mkt made, opened to read, lacks the citation ones. */
  get resultColumns(): ReadonlySet<string> {
    return this.presentColumns;
  }

  /** The column of `results` that holds a record's id: `id` or `record_id`, by its shape. */
  get idColumn(): string {
    return RECORD_ID_FIELDS[this.resultsShape];
  }

  /** Appends to one of the mirror's tables the rows `fill` gives its appender: one call on the connection, from the appender's making to its close. */
  private appendRows(table: string, fill: (appender: DuckDBAppender) => void): Promise<void> {
    return this.file.withConnection(async (connection) => {
      const appender = await connection.createAppender(table);
      try {
        fill(appender);
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    });
  }

  private async onFile<T>(call: () => Promise<T>): Promise<T> {
    this.throwIfAborted();
    try {
      return await call();
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** A query started after the signal would not be interrupted. */
  private throwIfAborted(): void {
    if (this.signal?.aborted) throw this.signal.reason;
  }

  /** The spellings of timestamps that do not read back by themselves (src/mirror/rows.ts). */
  private async keepTimestampTexts(table: string, records: readonly StoredRecord[]): Promise<void> {
    const odd = records.filter((record) => record.scrapedTimeText !== null || record.createdOnText !== null);
    if (odd.length === 0) return;
    await this.appendRows(table, (appender) => {
      for (const record of odd) {
        appender.appendVarchar(record.values[0] as string);
        appendText(appender, record.scrapedTimeText);
        appendText(appender, record.createdOnText);
        appender.endRow();
      }
    });
  }

  private knownAmounts: Set<string> | undefined;

  /** Each fee_amount text once, with its value and unit by src/api/amounts.ts: what results_with_values joins. */
  private async addAmounts(records: readonly StoredRecord[]): Promise<void> {
    if (!this.knownAmounts) {
      const rows = await this.rows('SELECT fee_amount FROM mkt_amounts');
      this.knownAmounts = new Set(rows.map((row) => row.fee_amount as string));
    }
    const known = this.knownAmounts;
    const fresh = new Set<string>();
    for (const record of records) {
      const text = record.values[AMOUNT_INDEX[record.shape]];
      if (typeof text === 'string' && !known.has(text)) fresh.add(text);
    }
    if (fresh.size === 0) return;
    await this.appendRows('mkt_amounts', (appender) => {
      for (const text of fresh) {
        const { value, unit } = parseAmount(text);
        appender.appendVarchar(text);
        if (value === null) appender.appendNull();
        else appender.appendDouble(value);
        appendText(appender, unit);
        appender.endRow();
      }
    });
    for (const text of fresh) known.add(text);
  }

  /**
   * A DuckDB file with tables is a mirror only when each is one of a mirror's (results,
   * results_with_values, mkt_*) and mkt_mirror has a mirror's columns: anything else is someone
   * else's database, and a sync changes nothing in it (nothing has been written when this runs).
   * Whether it has a `results` table.
   */
  private async checkNotAnotherDatabase(): Promise<boolean> {
    const [row] = await this.rows(
      `SELECT count(*)::INTEGER AS tables,
         count(*) FILTER (table_schema <> 'main' OR NOT (table_name IN ('results', 'results_with_values') OR starts_with(table_name, 'mkt_')))::INTEGER AS foreign_tables,
         count(*) FILTER (table_schema = 'main' AND table_name = 'results')::INTEGER AS results_tables,
         (SELECT count(*)::INTEGER FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = 'main'
            AND table_name = 'mkt_mirror' AND column_name IN ('layout', 'service', 'filters', 'created_at')) AS header_columns
       FROM information_schema.tables WHERE table_catalog = current_database()`,
    );
    const tables = Number(row?.tables ?? 0);
    if (tables > 0 && (Number(row?.foreign_tables ?? 0) > 0 || Number(row?.header_columns ?? 0) !== 4)) throw this.notAMirror();
    return Number(row?.results_tables ?? 0) > 0;
  }

  private notAMirror(): MktError {
    return new MktError(`${this.path} is a DuckDB database, but not a mirror of mkt`, {
      hint: 'Name a mirror with --mirror, or a new file for `mkt sync` to make one.',
    });
  }

  /**
   * Reads the row of mkt_mirror: a layout newer than this mkt's is not read, and the identity and
   * shape are kept. A mirror an earlier mkt made, opened to read, lacks the columns a sync adds.
   */
  private async readHeader(): Promise<void> {
    let rows: Record<string, SqlValue>[];
    let present: Set<string>;
    try {
      present = await this.columnsOf('results');
      rows = await this.rows(`SELECT layout, service, filters, ${(await this.columnsOf('mkt_mirror')).has('shape') ? 'shape' : 'NULL AS shape'} FROM mkt_mirror`);
    } catch (error) {
      // Ctrl-C interrupts the reading of the header: that is no sign of another database.
      if (this.signal?.aborted) throw abortReason(this.signal);
      throw isFileFailure((error as Error).cause) ? error : this.notAMirror();
    }
    this.useColumns(present);
    const [row] = rows;
    if (!row) return;
    const layout = row.layout as number;
    if (layout > MIRROR_LAYOUT) {
      throw new MktError(`${this.path} was written by a newer mkt (mirror layout ${layout})`, { hint: 'Upgrade mkt to read it.' });
    }
    this.recorded = { service: row.service as string, filters: row.filters as string };
    this.recordedShape = row.shape === '2026' ? '2026' : 'interface';
    // A mirror of 2026 records an earlier mkt kept in the interface's columns: a sync rebuilds it (src/mirror/sync.ts).
    if (!this.writable && this.recordedShape !== this.resultsShape) {
      throw new MktError(`${this.path} holds records of the 2026 shape in the columns of an earlier mkt`, { hint: 'Run `mkt sync --full-refresh` to rebuild it.' });
    }
  }

  /** Notes the columns `results` has, when a sync has made it anew. */
  async readColumns(): Promise<void> {
    this.useColumns(await this.columnsOf('results'));
  }

  private useColumns(present: ReadonlySet<string>): void {
    this.presentColumns = present;
    this.resultsShape = present.has(RECORD_ID_FIELDS['2026']) ? '2026' : 'interface';
    this.rowJson = rowAsJson(this.resultsShape, present);
  }
}

const AMOUNT_INDEX: Record<ServiceShape, number> = { interface: mirrorIndex('interface', 'fee_amount'), '2026': mirrorIndex('2026', 'fee_amount') };

function appendValues(appender: DuckDBAppender, record: StoredRecord, { DuckDBTimestampTZValue, DuckDBTimestampValue }: DuckDBModule): void {
  MIRROR_FIELDS[record.shape].forEach((field, index) => {
    const value = record.values[index] ?? null;
    if (value === null) appender.appendNull();
    else if (typeof value === 'string') appender.appendVarchar(value);
    else if (typeof value === 'number') appender.appendBigInt(BigInt(value));
    else if (field.kind === 'timestamp_utc') appender.appendTimestampTZ(new DuckDBTimestampTZValue(value));
    else appender.appendTimestamp(new DuckDBTimestampValue(value));
  });
}

function appendText(appender: DuckDBAppender, text: string | null): void {
  if (text === null) appender.appendNull();
  else appender.appendVarchar(text);
}

/**
 * What is at a mirror's path, refused when it is not a file: DuckDB would wait forever to open a
 * named pipe, and try to write a device. Undefined when nothing is there.
 */
export function checkMirrorPath(path: string): Stats | undefined {
  const stats = statOrUndefined(path);
  if (stats && !stats.isFile()) throw new UsageError(`${path} is ${whatIsAt(stats)}, not a mirror`, { hint: 'Give --mirror the path of a file.' });
  return stats;
}

/** What is at a path, its links followed, for a message: `a directory`, `a named pipe`… */
export function whatIsAt(stats: Stats): string {
  if (stats.isFile()) return 'a file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  return 'a device';
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
