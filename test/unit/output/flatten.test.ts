import { describe, expect, it } from 'vitest';
import { deriveColumns, validateColumns } from '../../../src/output/columns.js';
import { flattenRecord, jsonText, valueText } from '../../../src/output/flatten.js';
import { createProjection } from '../../../src/output/projection.js';
import { EXCHANGE_FIELD_NAMES, FEE_SCHEDULE_RESULT_FIELDS } from '../../../src/api/fields.js';
import { UsageError } from '../../../src/core/errors.js';
import { FEES, ORDER_TYPES, RULES } from './helpers.js';

describe('flattenRecord', () => {
  it('turns a fee schedule into dotted columns, one row', () => {
    expect(flattenRecord(FEES)).toEqual([
      {
        exchange: 'NYSE',
        effective_date: '2024-01-01',
        'fee_schedule.maker_fee': -0.002,
        'fee_schedule.taker_fee': 0.003,
        'fee_schedule.tier_thresholds.tier_2.volume': 5_000_000,
        'fee_schedule.tier_thresholds.tier_2.maker_rebate': -0.0025,
        'fee_schedule.tier_thresholds.tier_1.volume': 1_000_000,
        'fee_schedule.tier_thresholds.tier_1.maker_rebate': -0.002,
        last_updated: '2024-05-01T00:00:00Z',
      },
    ]);
  });

  it('turns rules into dotted columns', () => {
    const [row] = flattenRecord(RULES);
    expect(Object.keys(row ?? {})).toEqual(EXCHANGE_FIELD_NAMES.rules);
    expect(row?.['rules.circuit_breakers.level_2']).toBe(0.13);
  });

  it('makes one row per order type, repeating exchange and last_updated', () => {
    expect(flattenRecord(ORDER_TYPES)).toEqual(
      ORDER_TYPES.order_types.map((orderType) => ({
        exchange: 'IEX',
        'order_types.type': orderType.type,
        'order_types.description': orderType.description,
        'order_types.supported': orderType.supported,
        last_updated: '2024-05-03T00:00:00Z',
      })),
    );
  });

  it('gives every combination of two arrays of objects, and keeps arrays of scalars whole', () => {
    const rows = flattenRecord({ id: 1, a: [{ x: 1 }, { x: 2 }], b: [{ y: 'p' }, { y: 'q' }], tags: ['t1', 't2'], none: [] });
    expect(rows).toEqual([
      { id: 1, 'a.x': 1, 'b.y': 'p', tags: ['t1', 't2'] },
      { id: 1, 'a.x': 1, 'b.y': 'q', tags: ['t1', 't2'] },
      { id: 1, 'a.x': 2, 'b.y': 'p', tags: ['t1', 't2'] },
      { id: 1, 'a.x': 2, 'b.y': 'q', tags: ['t1', 't2'] },
    ]);
  });

  it('hands a flat record back as it is', () => {
    const record = { id: 'a', note: null, list: ['x'] };
    expect(flattenRecord(record)[0]).toBe(record);
  });

  it('drops an empty array from an otherwise flat record, as from a nested one', () => {
    expect(flattenRecord({ id: 'a', none: [] })).toEqual([{ id: 'a' }]);
    expect(flattenRecord({ id: 'a', none: [], nested: { x: 1 } })).toEqual([{ id: 'a', 'nested.x': 1 }]);
  });
});

describe('jsonText', () => {
  it("writes a bigint as a number with all its digits, and everything else as JSON.stringify does, compact or indented", () => {
    const record = { n: 1, big: [12345678901234567890n, -(2n ** 70n)], nested: { gone: undefined, kept: null, empty: {}, none: [] }, text: 'a"b' };
    const asNumbers = { ...record, big: [1, -2] };
    for (const indent of [undefined, 2]) {
      expect(jsonText(record, indent)).toBe(JSON.stringify(asNumbers, null, indent).replace('[1,-2]', '[12345678901234567890,-1180591620717411303424]').replace('1,\n    -2', '12345678901234567890,\n    -1180591620717411303424'));
    }
  });

  it('writes U+FFFD for a lone surrogate, in keys and values, where JSON.stringify writes \\ud800', () => {
    expect(jsonText({ '\udc00key': ['\ud800', 'a\udbffb'] })).toBe('{"\uFFFDkey":["\uFFFD","a\uFFFDb"]}');
    expect(jsonText({ a: '\ud800' }, 2)).toBe('{\n  "a": "\uFFFD"\n}');
  });

  it('keeps a surrogate pair, and the text \\ud800 after a backslash of the data', () => {
    const value = { pair: '\ud83d\ude00', text: '\\ud800', both: '\\\ud800' };
    expect(jsonText(value)).toBe('{"pair":"😀","text":"\\\\ud800","both":"\\\\\uFFFD"}');
    expect(JSON.parse(jsonText(value))).toEqual({ pair: '😀', text: '\\ud800', both: '\\\uFFFD' });
  });

  it('is the compact JSON text of a cell that holds an object or an array', () => {
    expect(valueText({ rate: '\ud800', list: ['a', 1] })).toBe('{"rate":"\uFFFD","list":["a",1]}');
    expect(valueText(['Option', 'Equity'])).toBe('["Option","Equity"]');
  });
});

describe('deriveColumns', () => {
  it('keeps first-seen order and types numbers, booleans and strings', () => {
    expect(deriveColumns(flattenRecord(ORDER_TYPES))).toEqual([
      { name: 'exchange', kind: 'string', nullable: false },
      { name: 'order_types.type', kind: 'string', nullable: false },
      { name: 'order_types.description', kind: 'string', nullable: false },
      { name: 'order_types.supported', kind: 'boolean', nullable: false },
      { name: 'last_updated', kind: 'string', nullable: false },
    ]);
  });

  it('is nullable where a row lacks the value or holds null, and a string where kinds mix', () => {
    expect(deriveColumns([{ a: 1, b: 1 }, { a: null, c: true }, { a: 2, b: 'two' }])).toEqual([
      { name: 'a', kind: 'number', nullable: true },
      { name: 'b', kind: 'string', nullable: true },
      { name: 'c', kind: 'boolean', nullable: true },
    ]);
  });
});

describe('validateColumns', () => {
  const columns = deriveColumns(flattenRecord(FEES));

  it('returns the named columns in the order given, a prefix naming all below it', () => {
    expect(validateColumns(['last_updated', 'fee_schedule.tier_thresholds.tier_1', 'exchange', 'exchange'], columns).map((c) => c.name)).toEqual([
      'last_updated',
      'fee_schedule.tier_thresholds.tier_1.volume',
      'fee_schedule.tier_thresholds.tier_1.maker_rebate',
      'exchange',
    ]);
  });

  it('rejects an unknown name with a UsageError listing the available ones', () => {
    expect(() => validateColumns(['fee_amount'], FEE_SCHEDULE_RESULT_FIELDS.slice(0, 3))).toThrow(UsageError);
    try {
      validateColumns(['id', 'fee_amont'], FEE_SCHEDULE_RESULT_FIELDS);
    } catch (error) {
      expect((error as UsageError).message).toBe('unknown column "fee_amont" in --columns; did you mean fee_amount?');
      expect((error as UsageError).hint).toContain('fee_amount');
      expect((error as UsageError).hint).toContain('created_on');
    }
    expect.assertions(4);
  });

  it('does not take a partial name for a prefix', () => {
    expect(() => validateColumns(['fee_sched'], columns)).toThrow(UsageError);
  });
});

describe('createProjection', () => {
  it('keeps the selected fields in the selection order and nests dotted names again', () => {
    const project = createProjection(['last_updated', 'fee_schedule.tier_thresholds.tier_1.volume', 'fee_schedule.maker_fee', 'exchange']);
    expect(JSON.stringify(project(FEES))).toBe(
      '{"last_updated":"2024-05-01T00:00:00Z","fee_schedule":{"tier_thresholds":{"tier_1":{"volume":1000000}},"maker_fee":-0.002},"exchange":"NYSE"}',
    );
  });

  it('applies a path through an array of objects to each element', () => {
    const project = createProjection(['order_types.type', 'order_types.supported']);
    expect(project(ORDER_TYPES)).toEqual({
      order_types: [
        { type: 'LIMIT', supported: true },
        { type: 'MARKET', supported: true },
        { type: 'FOK', supported: false },
      ],
    });
  });

  it('keeps a whole subtree when a prefix is named, whatever comes after, and null for a missing field', () => {
    const project = createProjection(['rules.circuit_breakers', 'rules.circuit_breakers.level_1', 'rules.missing']);
    expect(project(RULES)).toEqual({ rules: { circuit_breakers: RULES.rules.circuit_breakers, missing: null } });
  });
});
