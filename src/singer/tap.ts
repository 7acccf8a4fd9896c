import type { FieldSpec } from '../api/fields.js';
import type { ResultsQuery } from '../api/filters.js';
import { IdSet } from '../api/id-set.js';
import { RECORD_ID_FIELDS, type ServiceShape, shapeOfRecord } from '../api/record-id.js';
import { malformedAnswer } from '../api/results-page.js';
import { checkSameShape, DriftError, RepeatGuard, type ResultsSource, walkResults, type WalkProgress } from '../api/walk.js';
import { MktError } from '../core/errors.js';
import { newestPageQuery, SYNC_PAGE_SIZE } from '../mirror/mirror-filters.js';
import { type Bookmark, checkBookmarkFits, Cursor, hasBookmark, stateValue } from './bookmark.js';
import { recordSchema, REPLICATION_KEY, type Selection, selectedFields, STREAM } from './catalog.js';
import { type SingerRecord, toSingerRecord } from './records.js';

/** Where Singer messages go, a line each: ChunkSink's write, which asks to be awaited only when the stream is full. */
export interface MessageSink {
  write(line: string): Promise<void> | undefined;
}

export interface TapRequest {
  /** The results filters, in the service's spelling. */
  filters: ResultsQuery;
  bookmark: Bookmark;
  /** The state file the bookmark came from, for messages. */
  stateFile: string;
  selection: Selection;
  now: () => number;
}

/** What a run sent, for the line on stderr. */
export interface TapSummary {
  records: number;
  requests: number;
}

/** A STATE at least this often, in pages read or their worth of records sent: a run stopped after it loses nothing. */
const STATE_EVERY_PAGES = 100;
/**
 * Pages of records after a created_on bookmark that a run holds, reading back to it newest
 * first, before it looks for the bookmark's page oldest first instead and walks on from there:
 * a run that finds a few pages costs no more requests, a large backlog no more memory.
 */
const PAGES_HELD = 10;

/**
 * A Singer run (docs/pipelines.md): SCHEMA, then a RECORD for each record after the bookmark,
 * oldest first, so that the bookmark only moves forward, with a STATE every STATE_EVERY_PAGES
 * pages and at the end. Without a bookmark every page is walked oldest first, each page sent as it
 * comes. With one, the newest are read first, as a sync does, back to the bookmark, and then sent
 * oldest first: records added meanwhile come newest and only push the ones read onto later pages.
 * A created_on bookmark more than PAGES_HELD pages back is found oldest first instead (seekPage),
 * and the walk goes on from its page.
 */
export async function runTap(source: ResultsSource, request: TapRequest, sink: MessageSink): Promise<TapSummary> {
  const messages = new Messages(sink, request, source.host);
  if (!hasBookmark(request.bookmark)) {
    const requests = await walkFrom(source, request, messages, 0);
    return { records: messages.sent, requests };
  }
  const read = await readBackToBookmark(source, request, messages);
  if ('behind' in read) {
    const seek = await seekPage(source, request, read.behind);
    const requests = read.requests + seek.requests + (await walkFrom(source, request, messages, seek.page));
    return { records: messages.sent, requests };
  }
  const { shape, records, requests } = read;
  await messages.schema(shape);
  for (let index = records.length - 1; index >= 0; index--) {
    await messages.record(records[index] as Timed);
    if ((records.length - index) % (STATE_EVERY_PAGES * SYNC_PAGE_SIZE) === 0) await messages.state();
  }
  await messages.state();
  return { records: messages.sent, requests };
}

/** A record and when its page arrived. */
interface Timed extends SingerRecord {
  extractedAt: number;
}

/** The messages of a run, in order; each record checked whole before its line is written, so a malformed one leaves no broken line. */
class Messages {
  sent = 0;
  private shape: ServiceShape | undefined;
  private fields: readonly FieldSpec[] = [];
  /** Where the run started, which a walk of pages sends the records after. */
  private readonly start: Cursor;
  private readonly idsAtStart: ReadonlySet<string>;
  /** Where the run is: the bookmark of its next STATE. */
  private readonly cursor: Cursor;

  constructor(
    private readonly sink: MessageSink,
    private readonly request: TapRequest,
    private readonly host: string,
  ) {
    this.start = new Cursor(request.bookmark);
    this.idsAtStart = new Set(request.bookmark.ids_at_cursor);
    this.cursor = new Cursor(request.bookmark);
  }

  /** Whether a record comes after the bookmark the run started from. */
  isAfterStart(record: SingerRecord): boolean {
    return this.start.isAfter(record.id, record.createdOn?.micros, this.idsAtStart);
  }

  /** The created_on of the bookmark the run started from, in microseconds: undefined for an ids-only one. */
  get startMicros(): bigint | undefined {
    return this.start.createdOnMicros;
  }

  /** The fields a record of the run's shape carries: the SCHEMA's. */
  fieldsOf(shape: ServiceShape): readonly FieldSpec[] {
    return shape === this.shape ? this.fields : selectedFields(shape, this.request.selection);
  }

  async schema(shape: ServiceShape): Promise<void> {
    if (this.shape !== undefined) return;
    checkBookmarkFits(this.request.bookmark, shape, this.request.stateFile);
    this.shape = shape;
    this.fields = selectedFields(shape, this.request.selection);
    const key = REPLICATION_KEY[shape];
    await this.line({
      type: 'SCHEMA',
      stream: STREAM,
      schema: recordSchema(this.fields),
      key_properties: [RECORD_ID_FIELDS[shape]],
      ...(key === undefined ? {} : { bookmark_properties: [key] }),
    });
  }

  /** A record, which must not be older than the last one sent: the bookmark only moves forward. */
  async record(record: Timed): Promise<void> {
    const cursorMicros = this.cursor.createdOnMicros;
    if (record.createdOn !== undefined && cursorMicros !== undefined && record.createdOn.micros < cursorMicros) {
      throw malformedAnswer(this.host, `the records are not in created_on order (record ${record.id})`);
    }
    await this.line({ type: 'RECORD', stream: STREAM, record: record.record, time_extracted: new Date(record.extractedAt).toISOString() });
    this.cursor.advance(record.id, record.createdOn);
    this.sent++;
  }

  async state(): Promise<void> {
    await this.line({ type: 'STATE', value: stateValue(this.cursor.bookmark) });
  }

  private async line(message: object): Promise<void> {
    await this.sink.write(`${JSON.stringify(message)}\n`);
  }
}

/** The query of a walk oldest first, as a full walk of a sync reads: each page is then the same records from one run to the next. */
const oldestFirst = (filters: ResultsQuery): ResultsQuery => ({ ...filters, order_by: 'created_on', order_dir: 'asc', page_size: SYNC_PAGE_SIZE });

/**
 * Every page from `firstPage` on, oldest first, through the walk of `results --all`: the records
 * after the bookmark are sent as their page arrives. Returns the pages read.
 */
async function walkFrom(source: ResultsSource, request: TapRequest, messages: Messages, firstPage: number): Promise<number> {
  const query: ResultsQuery = { ...oldestFirst(request.filters), page_number: firstPage };
  let pages = 0;
  let pagesAtState = 0;
  // The envelope's shape, which says the SCHEMA when no record does.
  let answered: ServiceShape = 'interface';
  const onPage = (progress: WalkProgress) => {
    pages = progress.page;
    answered = progress.shape;
  };
  try {
    for await (const records of walkResults(source, query, { all: true, warn: () => {}, onPage })) {
      const extractedAt = request.now();
      // The walk holds its records to one shape: the first record's.
      const recordShape = shapeOfRecord(records[0] as object);
      const fields = messages.fieldsOf(recordShape);
      const converted = records.map((record) => ({ ...toSingerRecord(record, recordShape, fields, source.host), extractedAt }));
      await messages.schema(recordShape);
      for (const record of converted) if (messages.isAfterStart(record)) await messages.record(record);
      if (pages - pagesAtState >= STATE_EVERY_PAGES) {
        pagesAtState = pages;
        await messages.state();
      }
    }
  } catch (error) {
    if (!(error instanceof DriftError)) throw error;
    throw new MktError(error.message, { hint: 'The results changed during the run: run it again with the last STATE written, which loses nothing.' });
  }
  await messages.schema(answered);
  await messages.state();
  return pages;
}

/**
 * The records after the bookmark, newest first, read page by page newest first until a page
 * reaches the bookmark: for the interface shape, a record older than its created_on (so every
 * record that ties on it has been read); for the 2026 shape, a record it names. Records repeated
 * by a later page, when records were added meanwhile, are read once. A count that falls during
 * the reading means a record was withdrawn and another may have slipped past: nothing is sent.
 */
async function readBackToBookmark(
  source: ResultsSource,
  request: TapRequest,
  messages: Messages,
): Promise<{ shape: ServiceShape; records: Timed[]; requests: number } | { behind: { totalPages: number; bookmark: bigint }; requests: number }> {
  const seen = new IdSet();
  const records: Timed[] = [];
  const fetchPage = (pageNumber: number) => source.fetchResultsPage({ ...newestPageQuery(request.filters), page_number: pageNumber });
  const first = await fetchPage(0);
  // A bookmark this service cannot go on from is said before the pages are read to its end.
  checkBookmarkFits(request.bookmark, first.data[0] === undefined ? first.shape : shapeOfRecord(first.data[0]), request.stateFile);
  const guard = new RepeatGuard(first.total_pages - 1);
  let shape: ServiceShape | undefined;
  let fields: readonly FieldSpec[] = [];
  let lastMicros: bigint | undefined;
  for (let pageNumber = 0, page = first; ; page = await fetchPage(++pageNumber)) {
    const extractedAt = request.now();
    if (page.total_records < first.total_records) {
      throw new MktError(`the results changed during the run: total_records fell from ${first.total_records} to ${page.total_records} (page ${pageNumber})`, {
        hint: 'Run it again: nothing was sent, and the state is where it was.',
      });
    }
    let reached = false;
    let fresh = 0;
    for (const record of page.data) {
      const recordShape = checkSameShape(source.host, shape, record, pageNumber);
      if (recordShape !== shape) fields = selectedFields(recordShape, request.selection);
      shape = recordShape;
      const converted = toSingerRecord(record, shape, fields, source.host);
      if (!seen.add(converted.id)) continue;
      fresh++;
      const micros = converted.createdOn?.micros;
      if (micros !== undefined && lastMicros !== undefined && micros > lastMicros) {
        throw malformedAnswer(source.host, `the records are not in created_on order (page ${pageNumber})`);
      }
      lastMicros = micros;
      if (messages.isAfterStart(converted)) records.push({ ...converted, extractedAt });
      // Before the bookmark rather than a record that ties on it: every tie has been read.
      else if (micros === undefined || messages.startMicros === undefined || micros < messages.startMicros) reached = true;
    }
    guard.afterPage(pageNumber, page.data.length, fresh);
    if (reached || pageNumber >= page.total_pages - 1) return { shape: shape ?? first.shape, records, requests: pageNumber + 1 };
    // Too far back to hold what lies between: a created_on bookmark is found oldest first instead.
    if (pageNumber + 1 >= PAGES_HELD && messages.startMicros !== undefined) return { behind: { totalPages: page.total_pages, bookmark: messages.startMicros }, requests: pageNumber + 1 };
  }
}

/**
 * The page to walk from, oldest first, to send what follows a created_on bookmark: the last page
 * whose first record is older than the bookmark's created_on (the first page when none is), found
 * by halving the pages the service reported, a request each. Every record at or after that
 * created_on, ties on it included, is on that page or a later one.
 */
async function seekPage(source: ResultsSource, request: TapRequest, behind: { totalPages: number; bookmark: bigint }): Promise<{ page: number; requests: number }> {
  const { bookmark } = behind;
  let requests = 0;
  let low = 0;
  let high = behind.totalPages - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const page = await source.fetchResultsPage({ ...oldestFirst(request.filters), page_number: middle });
    requests++;
    const head = page.data[0];
    const headMicros = head === undefined ? undefined : toSingerRecord(head, checkSameShape(source.host, 'interface', head, middle), selectedFields('interface', request.selection), source.host).createdOn?.micros;
    if (headMicros !== undefined && headMicros < bookmark) low = middle;
    else high = middle - 1;
  }
  return { page: low, requests };
}
