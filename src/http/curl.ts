import { keyEchoSource } from '../core/redaction.js';

/*
 * A request as a `curl` command line that bash takes as pasted (--dry-run): each word quoted
 * for the shell, and the key, wherever it stands, written as "$MKT_API_KEY" so that the shell
 * puts it in when the line runs and the line itself never holds it.
 */

/** The variable that stands for the key in a printed line. */
export const KEY_VARIABLE = 'MKT_API_KEY';

export interface CurlRequest {
  method: string;
  url: URL;
  /** In the order they are sent, names as mkt spells them. */
  headers: Readonly<Record<string, string>>;
}

/** Words bash reads as they are, unquoted. */
const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;
/** Text that stands inside double quotes as it is, beside "$MKT_API_KEY". */
const PLAIN_IN_DOUBLE_QUOTES = /^[A-Za-z0-9 _./:=@%+,;-]*$/;

/** `text` in single quotes, each `'` closed, escaped and reopened. */
const singleQuoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * One word for bash: `text`, every occurrence of one of `keys` (as written, or encoded as a query
 * value holds it) replaced by the variable, and the rest quoted where it needs to be.
 */
export function shellWord(text: string, keys: readonly string[]): string {
  const parts = splitOnKeys(text, keys);
  if (parts.length === 1) return PLAIN_WORD.test(text) ? text : singleQuoted(text);
  // `"authorization: Bearer $MKT_API_KEY"`, where the text around the key allows it; braces when a name character follows.
  if (parts.every((part) => PLAIN_IN_DOUBLE_QUOTES.test(part))) {
    return `"${parts.reduce((word, part) => `${word}${/^[A-Za-z0-9_]/.test(part) ? `\${${KEY_VARIABLE}}` : `$${KEY_VARIABLE}`}${part}`)}"`;
  }
  return parts.map((part) => (part === '' ? '' : singleQuoted(part))).join(`"$${KEY_VARIABLE}"`);
}

/** `text` cut at each echo of a key: as written, or percent-encoded as a URL or a query value holds it. */
function splitOnKeys(text: string, keys: readonly string[]): string[] {
  const present = keys.filter((key) => key !== '');
  if (present.length === 0) return [text];
  // The longest first, so that no key is taken for a part of another.
  return text.split(new RegExp(present.sort((a, b) => b.length - a.length).map(keyEchoSource).join('|')));
}

/** `curl -sS -X GET 'URL' -H 'name: value' …`, each of `keys` written as "$MKT_API_KEY". */
export function curlCommand(request: CurlRequest, keys: readonly string[]): string {
  const headers = Object.entries(request.headers).map(([name, value]) => `-H ${shellWord(`${name}: ${value}`, keys)}`);
  return ['curl -sS -X', request.method, shellWord(request.url.href, keys), ...headers].join(' ');
}
