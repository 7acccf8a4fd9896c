import { describe, expect, it } from 'vitest';
import { oneLineElementSpans } from '../../../src/http/json-spans.js';

function texts(bytes: Buffer, spans: number[] | undefined): string[] | undefined {
  if (spans === undefined) return undefined;
  const found: string[] = [];
  for (let index = 0; index < spans.length; index += 2) found.push(bytes.toString('utf8', spans[index], spans[index + 1]));
  return found;
}

/**
 * The texts of the elements oneLineElementSpans finds in `json`'s member `data`, checked to be
 * the same whether or not it is given the parsed elements (which let it search flat objects).
 */
function elements(json: string): string[] | undefined {
  const bytes = Buffer.from(json);
  const read = texts(bytes, oneLineElementSpans(bytes, 'data'));
  let data: unknown;
  try {
    data = (JSON.parse(json) as { data?: unknown }).data;
  } catch {
    return read; // cut short: the caller never gets this far, but the layout is still refused
  }
  if (Array.isArray(data)) expect(texts(bytes, oneLineElementSpans(bytes, 'data', data)), json).toEqual(read);
  return read;
}

describe('oneLineElementSpans', () => {
  it('finds each element of the member, whatever comes before and after it', () => {
    const json = '{"a":{"data":[1]},"s":"]\\"data\\":[","data":[{"id":"x","n":[1,{"b":null}]},"t",-1.5e3,true,null,[]],"z":[{}]}';
    expect(elements(json)).toEqual(['{"id":"x","n":[1,{"b":null}]}', '"t"', '-1.5e3', 'true', 'null', '[]']);
  });

  it('reads strings with escaped quotes and backslashes, and multi-byte text, by bytes', () => {
    const json = '{"data":[{"q":"say \\"}\\" \\\\","e":"\\\\"},{"u":"ｆｕｌｌ 🙂 é"}]}';
    const found = elements(json);
    expect(found).toEqual(['{"q":"say \\"}\\" \\\\","e":"\\\\"}', '{"u":"ｆｕｌｌ 🙂 é"}']);
    expect(found?.map((text) => JSON.parse(text) as unknown)).toEqual((JSON.parse(json) as { data: unknown[] }).data);
  });

  it('allows whitespace between elements and around the object, and spaces inside an element, but not line breaks', () => {
    expect(elements(' {\n "data" : [ {"a":1} ,\n 2 ] }\n')).toEqual(['{"a":1}', '2']);
    expect(elements('{"data":[{"a": 1,\t"b" :[ 2 ]}]}')).toEqual(['{"a": 1,\t"b" :[ 2 ]}']);
    expect(elements('{"data":[{"a":1},\n{"b":\n2}]}')).toBeUndefined();
    expect(elements('{"data":[{"a":1,\r"b":2}]}')).toBeUndefined();
  });

  it('finds flat objects by their boundaries only where that is proven, else byte by byte', () => {
    // A string that ends in `},{`, and one that holds `},{"` and `]`.
    expect(elements('{"data":[{"a":"x},{"},{"b":"},{\\"c\\":1}]"}]}')).toEqual(['{"a":"x},{"}', '{"b":"},{\\"c\\":1}]"}']);
    // A key that starts with a space; an empty object; whitespace at a boundary.
    expect(elements('{"data":[{"a":1},{" b":2},{},{"c":3}, {"d":4}]}')).toEqual(['{"a":1}', '{" b":2}', '{}', '{"c":3}', '{"d":4}']);
    // Whitespace at a boundary, and a later member whose objects do match: not taken from it.
    expect(elements('{"data":[{"a":1}, {"b":2}],"other":[{"c":1},{"d":2}]}')).toEqual(['{"a":1}', '{"b":2}']);
    expect(elements('{"data":[{"a":1},{"b":2}\n],"other":[{"c":1},{"d":2}]}')).toEqual(['{"a":1}', '{"b":2}']);
    // A line break between elements is allowed; inside one, it is not.
    expect(elements('{"data":[{"a":1},\n{"b":2}]}')).toEqual(['{"a":1}', '{"b":2}']);
    expect(elements('{"data":[{"a":1},{"b":2,\n"c":3}]}')).toBeUndefined();
    expect(elements('{"data":[{"a":1,\n"b":2},{"c":3}]}')).toBeUndefined();
    expect(elements('{"data":[{"a":1,\r"b":2},{"c":3}]}')).toBeUndefined();
  });

  it('finds an empty array', () => {
    expect(elements('{"total":0,"data":[]}')).toEqual([]);
  });

  it('gives up on anything else: no member, a member twice, not an array, not an object, cut short', () => {
    expect(elements('{"other":[1]}')).toBeUndefined();
    expect(elements('{"data":[1],"data":[2]}')).toBeUndefined();
    expect(elements('{"data":{"a":1}}')).toBeUndefined();
    expect(elements('[{"data":[1]}]')).toBeUndefined();
    expect(elements('{"data":[{"a":"b"}')).toBeUndefined();
    expect(elements('{"data":[{"a":"b}]}')).toBeUndefined();
    expect(elements('{"d\\u0061ta":[1]}')).toBeUndefined();
  });
});

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AWKWARD_TEXT = [
  '', 'plain', 'say "hi"', 'back\\slash', 'ends in \\', 'line\nbreak', 'tab\there', 'ｆｕｌｌ', '🚀 rocket', 'é',
  '}],{"data":[', '\u0001', '\\"', 'data', '},{', '},{"a":1}', ']', '}]', ' lead', ',', ':',
];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 5 : 7));
  switch (pick) {
    case 0: return null;
    case 1: return next() < 0.5;
    case 2: return Math.round((next() - 0.5) * 1e6) / 100;
    case 3:
    case 4: return AWKWARD_TEXT[Math.floor(next() * AWKWARD_TEXT.length)] as string;
    case 5: return Array.from({ length: Math.floor(next() * 3) }, () => value(next, depth + 1));
    default: {
      // Keys include "data" itself: only the top-level member counts.
      const key = (index: number) => (next() < 0.2 ? 'data' : `${AWKWARD_TEXT[index] ?? 'k'}${index}`);
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, index) => [key(index), value(next, depth + 1)]));
    }
  }
}

/** An object whose values are scalars: what the service's records are. */
function flatObject(next: () => number): Record<string, unknown> {
  const entries = Array.from({ length: Math.floor(next() * 4) }, (_, index) => {
    const scalar = value(next, 3);
    return [`${AWKWARD_TEXT[Math.floor(next() * AWKWARD_TEXT.length)] as string}${index}`, scalar];
  });
  return Object.fromEntries(entries);
}

/** JSON with a space after every `,` and `:` outside strings, as Python writes it by default. */
function spaced(json: unknown): string {
  if (Array.isArray(json)) return `[${json.map(spaced).join(', ')}]`;
  if (typeof json === 'object' && json !== null) {
    return `{${Object.entries(json).map(([key, member]) => `${JSON.stringify(key)}: ${spaced(member)}`).join(', ')}}`;
  }
  return JSON.stringify(json);
}

describe('oneLineElementSpans against JSON.parse', () => {
  it('finds exactly the elements JSON.parse reads, over 4,000 generated pages: compact, spaced or indented, flat or not', () => {
    const next = random(20261121);
    for (let round = 0; round < 4000; round++) {
      const flat = round % 2 === 1;
      const data = Array.from({ length: Math.floor(next() * 6) }, () => (flat ? flatObject(next) : value(next, 0)));
      const page = { before: value(next, 1), data, total_records: data.length, after: flat ? [flatObject(next), flatObject(next)] : value(next, 1) };
      const layout = ['compact', 'compact', 'spaced', 'indented'][Math.floor(round / 2) % 4];
      const text = layout === 'spaced' ? spaced(page) : JSON.stringify(page, null, layout === 'indented' ? 2 : undefined);
      const bytes = Buffer.from(text);
      const parsed = (JSON.parse(text) as { data: unknown[] }).data;
      const spans = oneLineElementSpans(bytes, 'data', parsed);
      expect(spans, text).toEqual(oneLineElementSpans(bytes, 'data'));
      const oneLine = layout !== 'indented' || data.every((element) => JSON.stringify(element, null, 2) === JSON.stringify(element));
      if (!oneLine) {
        expect(spans, text).toBeUndefined();
        continue;
      }
      expect(spans, text).toBeDefined();
      expect(texts(bytes, spans)?.map((element) => JSON.parse(element) as unknown), text).toEqual(data);
    }
  });
});
