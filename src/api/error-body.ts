import { isJsonObject } from '../core/json-object.js';
import { serverText } from '../http/server-text.js';

/** Most entries of a 2026 VALIDATION_ERROR's `details` a message lists: the rest are counted. */
const MAX_DETAILS = 5;

/** What an error body says: the 2026 edition's code, when it gives one, and its words. */
export interface ServiceErrorBody {
  /** `UNAUTHORIZED`, `FORBIDDEN`, `NOT_FOUND`, `VALIDATION_ERROR`…: only from a 2026 body, as sent. */
  code: string | undefined;
  /** One line, cleaned by serverText: the code, the message and the details, as the message shows them. */
  text: string | undefined;
}

/**
 * An error body in any of the service's shapes: the 2026 edition's `{"error": {"code",
 * "message", "details"}, "meta"}`, FastAPI's `detail` (a string or a list of `{loc, msg}`), or
 * the interface document's flat `{message, …, status_code}`. Anything else (HTML pages, say)
 * gives neither code nor text. Cleaned by serverText: the key, if given, never comes back out.
 */
export function readErrorBody(body: unknown, key?: string): ServiceErrorBody {
  const error = isJsonObject(body) && isJsonObject(body.error) ? body.error : undefined;
  if (error !== undefined && (typeof error.code === 'string' || typeof error.message === 'string')) {
    const code = typeof error.code === 'string' ? error.code : undefined;
    const words = [code, typeof error.message === 'string' ? error.message : undefined].filter((part) => part !== undefined).join(': ');
    const details = Array.isArray(error.details) ? detailsText(error.details) : '';
    return { code, text: serverText(details === '' ? words : `${words} (${details})`, key) };
  }
  const text = flatDescription(body);
  return { code: undefined, text: text === undefined ? undefined : serverText(text, key) };
}

/** The one line of readErrorBody, or undefined when the body says nothing mkt can read. */
export function describeErrorBody(body: unknown, key?: string): string | undefined {
  return readErrorBody(body, key).text;
}

/** A 2026 `details` list in a few words: its first entries, then how many more. */
function detailsText(details: readonly unknown[]): string {
  const shown = details.slice(0, MAX_DETAILS).map(detailText);
  const more = details.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

/** One entry of `details`: text as it is, `{loc, msg}` or `{field, message}` as `where: what`, anything else as its JSON. */
function detailText(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (isJsonObject(detail)) {
    const where = Array.isArray(detail.loc) ? locationOf(detail.loc) : typeof detail.field === 'string' ? detail.field : '';
    const what = typeof detail.msg === 'string' ? detail.msg : typeof detail.message === 'string' ? detail.message : undefined;
    if (what !== undefined) return where ? `${where}: ${what}` : what;
  }
  return JSON.stringify(detail) ?? String(detail);
}

/** FastAPI's `loc` of a query parameter, without its `query`: `page_size`. */
const locationOf = (loc: readonly unknown[]): string => loc.filter((part) => part !== 'query').join('.');

/** FastAPI's `detail`, or the interface document's `message`. */
function flatDescription(body: unknown): string | undefined {
  if (!isJsonObject(body)) return undefined;
  const { detail, message } = body;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item: { loc?: unknown; msg?: unknown }) => {
        const location = Array.isArray(item?.loc) ? locationOf(item.loc) : '';
        return location ? `${location}: ${String(item?.msg)}` : String(item?.msg);
      })
      .join('; ');
  }
  return typeof message === 'string' ? message : undefined;
}

