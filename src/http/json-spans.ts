const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const isLineBreak = (byte: number | undefined): boolean => byte === LINE_FEED || byte === CARRIAGE_RETURN;
const isWhitespace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09 || isLineBreak(byte);

function skipWhitespace(json: Uint8Array, index: number): number {
  while (isWhitespace(json[index])) index++;
  return index;
}

/** The index after the string whose opening quote is at `open`; -1 if it does not end. */
function stringEnd(json: Uint8Array, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = json.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (json[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/**
 * The index after the value that starts at `start`; -1 if it does not end, or if `oneLine` and
 * it holds a line break (outside its strings, as JSON has none inside them).
 */
function valueEnd(json: Uint8Array, start: number, oneLine: boolean): number {
  let depth = 0;
  for (let index = start; index < json.length; ) {
    const byte = json[index] as number;
    if (byte === QUOTE) {
      index = stringEnd(json, index);
      if (index < 0 || depth === 0) return index;
      continue;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (depth === 0) return index; // a number, true, false or null, ended by its container
      if (--depth === 0) return index + 1;
    } else if (isWhitespace(byte)) {
      if (depth === 0) return index;
      if (oneLine && isLineBreak(byte)) return -1;
    } else if (byte === COMMA && depth === 0) {
      return index;
    }
    index++;
  }
  return -1;
}

/** [start, end) of each element of the array that opens at `open`, and the index after it. */
function arrayElements(json: Uint8Array, open: number): { spans: number[]; end: number } | undefined {
  const spans: number[] = [];
  let index = skipWhitespace(json, open + 1);
  if (json[index] === CLOSE_BRACKET) return { spans, end: index + 1 };
  for (;;) {
    const end = valueEnd(json, index, true);
    if (end <= index) return undefined;
    spans.push(index, end);
    index = skipWhitespace(json, end);
    if (json[index] === CLOSE_BRACKET) return { spans, end: index + 1 };
    if (json[index] !== COMMA) return undefined;
    index = skipWhitespace(json, index + 1);
  }
}

/** Whether each element is an object whose values are neither objects nor arrays. */
function areFlatObjects(elements: readonly unknown[]): boolean {
  for (const element of elements) {
    if (typeof element !== 'object' || element === null || Array.isArray(element)) return false;
    for (const key in element) {
      const value = (element as Record<string, unknown>)[key];
      if (typeof value === 'object' && value !== null) return false;
    }
  }
  return true;
}

const OBJECT_BOUNDARY = Buffer.from('},{"');
/** What may follow a string's closing quote in JSON. */
const mayFollowString = (byte: number | undefined): boolean =>
  byte === COMMA || byte === COLON || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isWhitespace(byte);

/**
 * arrayElements for an array of `count` flat objects (areFlatObjects), found by searching for
 * the boundaries between them rather than reading every byte: less than half the time, the
 * flatness check included. Undefined when what follows does not prove the answer, for
 * arrayElements to decide.
 *
 * - A `},{"` followed by a byte that cannot follow a string is outside strings: its quote is
 *   unescaped (a `{` precedes it), so it opens a string, since one it closed would be followed
 *   by `,` `:` `}` `]` or whitespace. Between flat objects, such a `},{` is a boundary.
 * - The last element, from the last boundary taken, is read byte by byte. It must end just
 *   before a `]` with no other `]` since `open`: that `]` then closes the array, and every
 *   boundary taken lies inside it. If a boundary in the array does not match (whitespace
 *   around it, an empty object after it, or a key after it that starts with one of those
 *   bytes), fewer than count − 1 are taken inside the array, the last lies past its `]`, and
 *   the check fails.
 * - The array holds no line break: JSON has none inside strings, so one search tells.
 */
function flatObjectElements(json: Buffer, open: number, count: number): { spans: number[]; end: number } | undefined {
  if (count === 0 || json[open + 1] !== OPEN_BRACE) return undefined;
  const spans = [open + 1];
  for (let from = open + 1; spans.length < 2 * count - 1; ) {
    const boundary = json.indexOf(OBJECT_BOUNDARY, from);
    if (boundary < 0) return undefined;
    from = boundary + 3;
    if (!mayFollowString(json[boundary + 4])) spans.push(boundary + 1, boundary + 2);
  }
  const end = valueEnd(json, spans[spans.length - 1] as number, true);
  if (end < 0 || json[end] !== CLOSE_BRACKET || json.indexOf(CLOSE_BRACKET, open + 1) !== end) return undefined;
  const lineFeed = json.indexOf(LINE_FEED, open);
  const carriageReturn = json.indexOf(CARRIAGE_RETURN, open);
  if ((lineFeed >= 0 && lineFeed < end) || (carriageReturn >= 0 && carriageReturn < end)) return undefined;
  spans.push(end);
  return { spans, end: end + 1 };
}

const quotedKeys = new Map<string, Buffer>();

/** `member` as its JSON string's UTF-8 bytes, quotes included; made once per member. */
function quotedKey(member: string): Buffer {
  let key = quotedKeys.get(member);
  if (key === undefined) quotedKeys.set(member, (key = Buffer.from(JSON.stringify(member))));
  return key;
}

/**
 * Where each element of `member`, an array in the top-level object of the UTF-8 JSON text
 * `json`, begins and ends, as byte offsets: [start₀, end₀, start₁, end₁, …], each end exclusive.
 *
 * Undefined when the text is not laid out that way, names `member` twice, or an element holds
 * a line break. Only the layout is read: the caller has already checked the text with
 * JSON.parse, and passes the member's parsed `elements`, which let flat objects be found faster.
 */
export function oneLineElementSpans(json: Buffer, member: string, elements?: readonly unknown[]): number[] | undefined {
  const key = quotedKey(member);
  let index = skipWhitespace(json, 0);
  if (json[index] !== OPEN_BRACE) return undefined;
  index = skipWhitespace(json, index + 1);
  let spans: number[] | undefined;
  while (json[index] === QUOTE) {
    const keyEnd = stringEnd(json, index);
    if (keyEnd < 0) return undefined;
    const isMember = keyEnd - index === key.length && key.every((byte, offset) => json[index + offset] === byte);
    index = skipWhitespace(json, keyEnd);
    if (json[index] !== COLON) return undefined;
    index = skipWhitespace(json, index + 1);
    if (isMember) {
      if (spans !== undefined || json[index] !== OPEN_BRACKET) return undefined;
      const found = (elements && areFlatObjects(elements) && flatObjectElements(json, index, elements.length)) || arrayElements(json, index);
      if (!found) return undefined;
      spans = found.spans;
      index = found.end;
    } else {
      index = valueEnd(json, index, false);
      if (index < 0) return undefined;
    }
    index = skipWhitespace(json, index);
    if (json[index] === CLOSE_BRACE) return spans;
    if (json[index] !== COMMA) return undefined;
    index = skipWhitespace(json, index + 1);
  }
  return undefined;
}
