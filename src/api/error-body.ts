import { serverText } from '../http/server-text.js';

/**
 * One line out of an error body: FastAPI's `detail` (a string or a list of
 * `{loc, msg}`), or a `message`. Anything else (HTML pages, say) gives undefined.
 * Cleaned by serverText: the key, if given, never comes back out.
 */
export function describeErrorBody(body: unknown, key?: string): string | undefined {
  const text = rawDescription(body);
  return text === undefined ? undefined : serverText(text, key);
}

function rawDescription(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { detail, message } = body as { detail?: unknown; message?: unknown };
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = detail.map((item: { loc?: unknown; msg?: unknown }) => {
      const location = Array.isArray(item?.loc) ? item.loc.filter((part) => part !== 'query').join('.') : '';
      return location ? `${location}: ${String(item?.msg)}` : String(item?.msg);
    });
    return parts.join('; ');
  }
  return typeof message === 'string' ? message : undefined;
}
