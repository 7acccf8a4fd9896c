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
