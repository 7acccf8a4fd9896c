import { redactKey } from '../core/redaction.js';

/** Longest server text mkt prints: enough for any real message, not a page of HTML. */
const MAX_SERVER_TEXT = 1000;

/**
 * The one place server text is made safe to print: every occurrence of the key (as sent, and
 * percent-encoded, since servers echo the request back in either form) becomes `***` (redactKey),
 * and control characters (C0, DEL, C1, line and paragraph separators, bidi overrides) are shown
 * as `\xNN` or `\uNNNN`. So an error body cannot leak the key into a log or a terminal, forge a
 * second line, or move the cursor: what it says is always one visible line.
 */
export function serverText(text: string, key: string | undefined): string {
  const clean = (key ? redactKey(text, key) : text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return clean.length > MAX_SERVER_TEXT ? `${clean.slice(0, MAX_SERVER_TEXT)}…` : clean;
}
