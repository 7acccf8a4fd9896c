const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BACKSLASH_U = Buffer.from('\\u');
const isAsciiHexLead = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x37; // '0'…'7'

/**
 * Whether a JSON text may hold a `\u` escape of a character beyond ASCII. `\u00XX` with XX below
 * 0x80 is ASCII; anything else counts, including the `\u` of an escaped backslash followed by
 * a `u`, which is harmless to count.
 */
function mayEscapeBeyondAscii(body: Buffer): boolean {
  for (let at = body.indexOf(BACKSLASH_U); at !== -1; at = body.indexOf(BACKSLASH_U, at + 2)) {
    if (body[at + 2] !== 0x30 || body[at + 3] !== 0x30 || !isAsciiHexLead(body[at + 4])) return true;
  }
  return false;
}

/** A body read as text for JSON.parse. */
export interface BodyText {
  text: string;
  /**
   * The text was read as Latin-1: each character is one byte of the body, so the strings JSON.parse
   * makes of it hold the UTF-8 bytes of their text, one per character ("byte strings"). Written
   * with the `latin1` encoding they give back exactly the service's UTF-8.
   */
  byteStrings: boolean;
}

/**
 * The body as text, a UTF-8 byte order mark left out. With `byteStrings`, read as Latin-1 when
 * that is exact: a byte string is a one-byte string, which V8 decodes and parses three times as
 * fast as text with characters beyond Latin-1 (docs/performance.md). It is not exact when a
 * `\u` escape makes a character beyond ASCII: that one would be a character, not bytes.
 */
export function bodyText(body: Buffer, byteStrings: boolean): BodyText {
  const start = body.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0;
  if (byteStrings && !mayEscapeBeyondAscii(body)) return { text: body.toString('latin1', start), byteStrings: true };
  return { text: body.toString('utf8', start), byteStrings: false };
}
