import { MAX_ID_LENGTH, type ServiceShape } from '../api/record-id.js';
import { isJsonObject } from '../core/json-object.js';
import { UsageError } from '../core/errors.js';
import { parseTimestampMicros } from '../core/timestamps.js';
import { STREAM } from './catalog.js';

/**
 * Where the stream stands, as a STATE message keeps it (docs/pipelines.md): the created_on of
 * the newest record sent, and the ids of the records sent at that created_on, which tell apart
 * the records that tie on it. For a 2026 service, whose records carry no created_on, created_on is
 * null and the ids are those of the newest records sent (NEWEST_IDS_KEPT of them). No created_on
 * and no ids: nothing sent yet.
 */
export interface Bookmark {
  created_on: string | null;
  ids_at_cursor: string[];
}

export const NO_BOOKMARK: Bookmark = { created_on: null, ids_at_cursor: [] };

/**
 * How many of the newest ids a 2026 bookmark keeps. Reading newest first, a run stops at the
 * first page holding one of them; records that tie on the service's hidden created_on may come
 * in another order newest first than oldest first, so a bookmark keeps many pages' worth rather than
 * the last record alone.
 */
export const NEWEST_IDS_KEPT = 1000;

/** The STATE message's value for a bookmark. */
export function stateValue(bookmark: Bookmark): { bookmarks: Record<string, Bookmark> } {
  return { bookmarks: { [STREAM]: bookmark } };
}

/**
 * The bookmark of a state file's JSON (the value of the last STATE message a run wrote), or a
 * usage error naming `file`. A state without the stream's bookmark starts from the beginning.
 */
export function bookmarkOf(state: unknown, file: string): Bookmark {
  const invalid = (why: string) => new UsageError(`${file} is not a state mkt tap wrote: ${why}`, { hint: 'Give the value of the last STATE message of a run, or leave --state out to start from the beginning.' });
  if (!isJsonObject(state)) throw invalid('it is not a JSON object');
  if (state.bookmarks === undefined) return NO_BOOKMARK;
  if (!isJsonObject(state.bookmarks)) throw invalid('"bookmarks" is not an object');
  const bookmark = state.bookmarks[STREAM];
  if (bookmark === undefined) return NO_BOOKMARK;
  if (!isJsonObject(bookmark)) throw invalid(`the bookmark of ${STREAM} is not an object`);
  const createdOn = bookmark.created_on ?? null;
  if (createdOn !== null && (typeof createdOn !== 'string' || parseTimestampMicros(createdOn) === undefined)) {
    throw invalid('its created_on is not a timestamp');
  }
  const ids = bookmark.ids_at_cursor ?? [];
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && id !== '' && id.length <= MAX_ID_LENGTH)) {
    throw invalid('its ids_at_cursor is not a list of record ids');
  }
  return { created_on: createdOn, ids_at_cursor: ids as string[] };
}

/** Whether a bookmark says where a run left off: without one, a run sends everything. */
export function hasBookmark(bookmark: Bookmark): boolean {
  return bookmark.created_on !== null || bookmark.ids_at_cursor.length > 0;
}

/**
 * A bookmark a service of this shape cannot go on from: a created_on is nothing a 2026
 * record can be compared with.
 */
export function checkBookmarkFits(bookmark: Bookmark, shape: ServiceShape, file: string): void {
  if (bookmark.created_on !== null && shape === '2026') {
    throw new UsageError(`the bookmark in ${file} has a created_on, and the service answers in the 2026 shape, whose records carry none`, {
      hint: 'The state belongs to a service of the interface shape: leave --state out to start from the beginning.',
    });
  }
}

/**
 * The bookmark as records are sent, oldest first: a later created_on moves it and starts its
 * ids anew, an equal one adds its id; a 2026 record (created_on undefined) adds its id to the
 * newest kept.
 */
export class Cursor {
  private createdOn: string | null;
  private micros: bigint | undefined;
  private ids: string[];

  constructor(start: Bookmark) {
    this.createdOn = start.created_on;
    this.micros = start.created_on === null ? undefined : parseTimestampMicros(start.created_on);
    this.ids = [...start.ids_at_cursor];
  }

  /** The created_on of the cursor, in microseconds; undefined for an ids-only bookmark. */
  get createdOnMicros(): bigint | undefined {
    return this.micros;
  }

  /** Whether a record lies after the cursor: a later created_on, or the cursor's own with an id not sent yet. */
  isAfter(id: string, createdOn: bigint | undefined, idsAtCursor: ReadonlySet<string>): boolean {
    if (createdOn === undefined || this.micros === undefined) return !idsAtCursor.has(id);
    return createdOn > this.micros || (createdOn === this.micros && !idsAtCursor.has(id));
  }

  /** After a record is sent. `createdOn` is its RFC 3339 text and microseconds; undefined for a 2026 record. */
  advance(id: string, createdOn: { text: string; micros: bigint } | undefined): void {
    if (createdOn === undefined) {
      this.ids.push(id);
      if (this.ids.length > 2 * NEWEST_IDS_KEPT) this.ids = this.ids.slice(-NEWEST_IDS_KEPT);
      return;
    }
    if (this.micros === undefined || createdOn.micros > this.micros) {
      this.createdOn = createdOn.text;
      this.micros = createdOn.micros;
      this.ids = [];
    }
    this.ids.push(id);
  }

  get bookmark(): Bookmark {
    return { created_on: this.createdOn, ids_at_cursor: this.micros === undefined ? this.ids.slice(-NEWEST_IDS_KEPT) : [...this.ids] };
  }
}
