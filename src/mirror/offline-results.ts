import { ENUM_FILTER_NAMES, type OrderBy, PAGE_SIZE, type ResultsQuery } from '../api/filters.js';
import type { FeeScheduleResultsPage, ResultRecord } from '../api/types.js';
import type { ResultsSource } from '../api/walk.js';
import type { SqlValue } from './duckdb.js';
import type { Mirror } from './mirror.js';
import { enumKey } from '../api/filter-spelling.js';
import { RecordReader } from './rows.js';

/**
 * How the sandbox orders results (src/sandbox/results-search.ts): by the field, then created_on,
 * then id, all in one direction. supplier_name sorts by the records' exchange_name. A mirror of
 * 2026 records, which carry no created_on, goes by scraped_time in its place (CREATED_ON_2026),
 * and by record_id for id.
 */
const ORDER_KEYS: Record<OrderBy, readonly string[]> = {
  created_on: ['created_on', 'id'],
  scraped_time: ['scraped_time', 'created_on', 'id'],
  supplier_name: ['exchange_name', 'created_on', 'id'],
  fee_type: ['fee_type', 'created_on', 'id'],
  fee_category: ['fee_category', 'created_on', 'id'],
};

/** What stands for created_on in a mirror of 2026 records: when the records were scraped. */
const CREATED_ON_2026 = 'scraped_time';

/** The column that tells which of a mirror's records is newer: created_on, or CREATED_ON_2026. */
const createdOnOf = (mirror: Mirror): string => (mirror.shape === '2026' ? CREATED_ON_2026 : 'created_on');

/** An ordered read of a query's records: the page it has reached, and rows read ahead of it. */
interface Cursor {
  key: string;
  nextPage: number;
  /** The query's WHERE clause, its values and its ORDER BY keys. */
  where: string;
  values: SqlValue[];
  order: string;
  /** Where the next read starts, and how many rows it takes. */
  offset: number;
  batch: number;
  /** Rows read and not yet taken by a page, from `taken` on: each a JSON array (ROW_AS_JSON), made a record when its page is. */
  rows: string[];
  taken: number;
  done: boolean;
}

/**
 * Each read of a walk takes this many times the rows of the one before, up to the most: a page
 * alone costs a top-N sort of one page, and a walk of every page a few sorts in all. The most
 * bounds what `--all` of a large mirror holds at once, at about the same speed as larger reads.
 */
const BATCH_GROWTH = 4;
const MAX_BATCH = 8_192;

/**
 * Answers results queries from a mirror as the service answers them (`mkt results --offline`):
 * the same filters, order, paging and envelope, so that everything after the page (the walk,
 * the exporters) is the same code. Pages asked in order continue one ordered read, in reads
 * that grow (BATCH_GROWTH), so a page costs a top-N sort of one page and `--all` a few sorts.
 */
export class MirrorResults implements ResultsSource {
  readonly host = 'the mirror';
  private cursor: Cursor | undefined;
  private readonly totals = new Map<string, number>();
  private readonly records: RecordReader;
  /** One page at a time: a walk asks for several at once, in order. */
  private queue: Promise<unknown> = Promise.resolve();

  /** `maxBatch`: the most rows one read takes, MAX_BATCH unless a test asks for fewer (Deps.offlineReadRows). */
  constructor(
    private readonly mirror: Mirror,
    private readonly maxBatch = MAX_BATCH,
  ) {
    this.records = new RecordReader(mirror.shape);
  }

  fetchResultsPage(query: ResultsQuery): Promise<FeeScheduleResultsPage> {
    const page = this.queue.then(() => this.page(query));
    this.queue = page.catch(() => {});
    return page;
  }

  private async page(query: ResultsQuery): Promise<FeeScheduleResultsPage> {
    const pageSize = query.page_size ?? PAGE_SIZE.default;
    const pageNumber = query.page_number ?? 0;
    const createdOn = createdOnOf(this.mirror);
    const { where, values } = whereOf(query, createdOn);
    const direction = (query.order_dir ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
    const column = (key: string) => (key === 'created_on' ? createdOn : key === 'id' ? this.mirror.idColumn : key);
    const keys = [...new Set(ORDER_KEYS[query.order_by ?? 'created_on'].map(column))];
    const order = keys.map((key) => `r.${key} ${direction}`).join(', ');
    const key = JSON.stringify([where, values.map(String), order, pageSize]);

    let total = this.totals.get(key);
    if (total === undefined) {
      const [row] = await this.mirror.rows(`SELECT count(*)::BIGINT AS n FROM results r ${where}`, values);
      total = Number(row?.n ?? 0);
      this.totals.set(key, total);
    }
    let cursor = this.cursor;
    if (!cursor || cursor.key !== key || cursor.nextPage !== pageNumber) {
      cursor = { key, nextPage: pageNumber, where, values, order, offset: pageNumber * pageSize, batch: pageSize, rows: [], taken: 0, done: false };
      this.cursor = cursor;
    }
    while (cursor.rows.length - cursor.taken < pageSize && !cursor.done) await this.read(cursor);
    const data = cursor.rows.slice(cursor.taken, cursor.taken + pageSize).map((row) => this.records.read(row) as unknown as ResultRecord);
    cursor.taken += data.length;
    cursor.nextPage++;
    return {
      // The edition the mirror's records came in (a mirror synced from nothing yet: the interface's).
      shape: this.mirror.shape ?? 'interface',
      data,
      total_records: total,
      page_size: pageSize,
      total_pages: Math.ceil(total / pageSize),
      current_page: pageNumber,
    };
  }

  /**
   * The cursor's next rows, each the JSON array of a record. The rows are chosen by their
   * order keys alone, and only they are read whole: a sort of every column would read every
   * column of every record the query matches, for one page.
   */
  private async read(cursor: Cursor): Promise<void> {
    const chosen = `SELECT r.rowid FROM results r ${cursor.where} ORDER BY ${cursor.order} LIMIT ${cursor.batch} OFFSET ${cursor.offset}`;
    const rows = (await this.mirror.column(
      `SELECT ${this.mirror.rowAsJson} FROM results r LEFT JOIN mkt_timestamp_text t ON t.id = r.${this.mirror.idColumn}
       WHERE r.rowid IN (${chosen}) ORDER BY ${cursor.order}`,
      cursor.values,
    )) as string[];
    cursor.rows = cursor.rows.slice(cursor.taken).concat(rows);
    cursor.taken = 0;
    cursor.done = rows.length < cursor.batch;
    cursor.offset += rows.length;
    cursor.batch = Math.min(cursor.batch * BATCH_GROWTH, this.maxBatch);
  }
}

const DAY_MICROS = 86_400_000_000n;

/** Microseconds since 1970 of the start (UTC) of a YYYY-MM-DD date, checked by the flags. */
function dayStartMicros(date: string): bigint {
  return BigInt(Date.parse(`${date}T00:00:00Z`)) * 1000n;
}

/** enumKey (src/api/filter-spelling.ts) of a column, in DuckDB's SQL. */
export function enumKeySql(column: string): string {
  const words = `string_split_regex(CASE WHEN lower(${column}) = 'n/a' THEN 'not applicable' ELSE lower(${column}) END, '[\\s_]+')`;
  const singular = `CASE WHEN length(w) > 3 AND suffix(w, 's') AND NOT suffix(w, 'ss') THEN w[1:-2] ELSE w END`;
  return `regexp_replace(array_to_string(list_transform(list_filter(${words}, w -> w <> ''), w -> ${singular}), ' '), '^equity class$', 'equity')`;
}

/** The WHERE clause over `results r` of the records a query matches in a mirror, as `results --offline` reads them, with its values bound. */
export function mirrorWhere(mirror: Mirror, query: ResultsQuery): { where: string; values: SqlValue[] } {
  return whereOf(query, createdOnOf(mirror));
}

/** The WHERE clause of the service's filters, with their values bound; `createdOn`, the column that says which version is newest. */
function whereOf(query: ResultsQuery, createdOn: string): { where: string; values: SqlValue[] } {
  const conditions: string[] = [];
  const values: SqlValue[] = [];
  const bind = (value: SqlValue): string => {
    values.push(value);
    return `$${values.length}`;
  };
  if (query.exchange_name?.length) conditions.push(`r.exchange_name IN (${query.exchange_name.map(bind).join(', ')})`);
  // supplier_name is the mirror's own filter (checkWithinMirror): every record in it matches.
  for (const name of ENUM_FILTER_NAMES) {
    const wanted = query[name];
    if (!wanted?.length) continue;
    conditions.push(`${enumKeySql(`r.${name}`)} IN (${[...new Set(wanted.map(enumKey))].map(bind).join(', ')})`);
  }
  if (query.start_date) conditions.push(`epoch_us(r.scraped_time) >= ${bind(dayStartMicros(query.start_date))}`);
  if (query.end_date) conditions.push(`epoch_us(r.scraped_time) < ${bind(dayStartMicros(query.end_date) + DAY_MICROS)}`);
  if (query.latest_only) {
    // The newest version of each exchange and fee type (OPTION and Option are one), as the service has it.
    conditions.push(`r.version_id IN (SELECT arg_max(version_id, ${createdOn}) FROM results GROUP BY exchange_name, lower(fee_type))`);
  }
  return { where: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', values };
}
