import { describe, expect, it } from 'vitest';
import { joinSource } from '../../../src/output/source-json.js';

const BODY = Buffer.from('{"data":[{"a":1},{"b":22},{"c":"x,y"},{"d":[4]}],"n":4}');
/** [start, end) of each record of BODY's data, found by hand. */
const SPANS = [9, 16, 17, 25, 26, 37, 38, 47];
const NEWLINE = Buffer.from('\n');

/** What joinSource must return, written the plain way: one slice per record. */
function joined(spans: number[], separator: string, prefix = '', suffix = ''): string {
  const records: string[] = [];
  for (let index = 0; index < spans.length; index += 2) records.push(BODY.toString('latin1', spans[index], spans[index + 1]));
  return prefix + records.join(separator) + suffix;
}

describe('joinSource', () => {
  it('joins a compact array\'s records by newlines, commas inside strings left alone', () => {
    const chunk = joinSource({ bytes: BODY, spans: SPANS }, NEWLINE, { suffix: NEWLINE });
    expect(chunk.toString()).toBe('{"a":1}\n{"b":22}\n{"c":"x,y"}\n{"d":[4]}\n');
  });

  it('joins with a separator longer than the gaps, with a prefix', () => {
    const chunk = joinSource({ bytes: BODY, spans: SPANS }, Buffer.from(',\n  '), { prefix: Buffer.from('[\n  ') });
    expect(chunk.toString()).toBe(joined(SPANS, ',\n  ', '[\n  '));
  });

  it('joins records that are not neighbours (some were left out) around the ones that are', () => {
    for (const kept of [[0, 2, 3], [0, 1, 3], [1], [0, 3], [1, 2]]) {
      const spans = kept.flatMap((index) => [SPANS[2 * index] as number, SPANS[2 * index + 1] as number]);
      expect(joinSource({ bytes: BODY, spans }, NEWLINE, { suffix: NEWLINE }).toString()).toBe(joined(spans, '\n', '', '\n'));
    }
  });

  it('writes only the prefix and suffix when there are no records', () => {
    expect(joinSource({ bytes: BODY, spans: [] }, NEWLINE, { prefix: Buffer.from('['), suffix: Buffer.from(']') }).toString()).toBe('[]');
  });
});
