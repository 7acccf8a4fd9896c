const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isWhitespace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

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
 * The index after the value that starts at `start`; -1 if it does not end, or if `compact` and
 * it holds whitespace outside its strings.
 */
function valueEnd(json: Uint8Array, start: number, compact: boolean): number {
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
      if (compact) return -1;
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

/**
 * Where each element of `member`, an array in the top-level object of the UTF-8 JSON text
 * `json`, begins and ends, as byte offsets: [start₀, end₀, start₁, end₁, …], each end exclusive.
 *
 * Undefined when the text is not laid out that way, names `member` twice, or an element holds
 * whitespace outside its strings (it would not be compact, so not one line). Only the layout
 * is read: the caller has already checked the text with JSON.parse, whose values these are.
 */
export function compactElementSpans(json: Uint8Array, member: string): number[] | undefined {
  const key = new TextEncoder().encode(JSON.stringify(member));
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
      const elements = arrayElements(json, index);
      if (!elements) return undefined;
      spans = elements.spans;
      index = elements.end;
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
