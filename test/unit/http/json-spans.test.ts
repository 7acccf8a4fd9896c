import { describe, expect, it } from 'vitest';
import { compactElementSpans } from '../../../src/http/json-spans.js';

/** The texts of the elements compactElementSpans finds in `json`'s member `data`. */
function elements(json: string): string[] | undefined {
  const bytes = Buffer.from(json);
  const spans = compactElementSpans(bytes, 'data');
  if (spans === undefined) return undefined;
  const texts: string[] = [];
  for (let index = 0; index < spans.length; index += 2) texts.push(bytes.toString('utf8', spans[index], spans[index + 1]));
  return texts;
}

describe('compactElementSpans', () => {
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

  it('allows whitespace between elements and around the object, but not inside an element', () => {
    expect(elements(' {\n "data" : [ {"a":1} ,\n 2 ] }\n')).toEqual(['{"a":1}', '2']);
    expect(elements('{"data":[{"a": 1}]}')).toBeUndefined();
    expect(elements('{"data":[{"a":1},\n{"b":\n2}]}')).toBeUndefined();
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

const AWKWARD_TEXT = ['', 'plain', 'say "hi"', 'back\\slash', 'ends in \\', 'line\nbreak', 'tab\there', 'ｆｕｌｌ', '🚀 rocket', 'é', '}],{"data":[', '\u0001', '\\"', 'data'];

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

describe('compactElementSpans against JSON.parse', () => {
  it('finds exactly the elements JSON.parse reads, over 2,000 generated pages, compact or indented', () => {
    const next = random(20261121);
    for (let round = 0; round < 2000; round++) {
      const data = Array.from({ length: Math.floor(next() * 6) }, () => value(next, 0));
      const page = { before: value(next, 1), data, total_records: data.length, after: value(next, 1) };
      const indent = round % 4 === 3 ? 2 : undefined;
      const text = JSON.stringify(page, null, indent);
      const bytes = Buffer.from(text);
      const spans = compactElementSpans(bytes, 'data');
      const compact = indent === undefined || data.every((element) => JSON.stringify(element, null, indent) === JSON.stringify(element));
      if (!compact) {
        expect(spans, text).toBeUndefined();
        continue;
      }
      expect(spans, text).toBeDefined();
      const found = [];
      for (let index = 0; index < (spans as number[]).length; index += 2) {
        found.push(JSON.parse(bytes.toString('utf8', (spans as number[])[index], (spans as number[])[index + 1])) as unknown);
      }
      expect(found, text).toEqual(data);
    }
  });
});
