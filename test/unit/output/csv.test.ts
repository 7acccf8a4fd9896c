import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELDS, FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../../src/api/fields.js';
import { csvField, csvSafeField } from '../../../src/output/csv.js';
import { writeDataset } from '../../../src/output/write.js';
import { awkwardResults, FEES, from, MemoryStream, options, ORDER_TYPES, useTempDir } from './helpers.js';
import { useDuckDB } from '../../helpers/duckdb.js';

/** How DuckDB is told to read our CSV: text as text, and a quoted empty string is not NULL. */
const READ_CSV = `read_csv($1, header = true, all_varchar = true, allow_quoted_nulls = false, delim = ',', quote = '"', escape = '"')`;

const duckdb = useDuckDB();
const tempDirs = useTempDir();

describe('csvField', () => {
  it.each([
    [null, ''],
    [undefined, ''],
    ['', '""'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['a\nb', '"a\nb"'],
    ['a\rb', '"a\rb"'],
    ['a\tb', 'a\tb'],
    [12.5, '12.5'],
    [false, 'false'],
    [['x', 'y'], '"[""x"",""y""]"'],
  ])('writes %j as %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

describe('csvSafeField (--csv-safe)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+41 22 000 00 00', "'+41 22 000 00 00"],
    ['-0.0038', "'-0.0038"],
    [-0.0038, "'-0.0038"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', '"\'\r=1+1"'],
    ['=HYPERLINK("http://x.test","y")', '"\'=HYPERLINK(""http://x.test"",""y"")"'],
    ['=1,2', '"\'=1,2"'],
    [{ rate: '=1' }, '"{""rate"":""=1""}"'],
    ['a=b', 'a=b'],
    ["'=1+1", "'=1+1"],
    [' =1+1', ' =1+1'],
    [0.003, '0.003'],
    ['', '""'],
    [null, ''],
  ])('writes %j as %j', (value, field) => {
    expect(csvSafeField(value)).toBe(field);
  });
});

describe('csv', () => {
  it('round-trips awkward records cell by cell through DuckDB, null and empty string apart', async () => {
    const records = awkwardResults();
    const path = join(tempDirs.current.path, 'results.csv');
    await writeDataset({ shape: 'list', batches: from(records), columns: FEE_SCHEDULE_RESULT_FIELDS }, options({ outputPath: path }));

    const rows = await duckdb.current.rows(`SELECT * FROM ${READ_CSV}`, [path]);
    expect(rows).toHaveLength(records.length);
    rows.forEach((row, index) => {
      expect(Object.keys(row)).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
      expect(row).toEqual(records[index]);
    });
    // The fixture does hold both, so the comparison above has something to tell apart.
    expect(records.some((record) => record.fee_notes === '') && records.some((record) => record.fee_notes === null)).toBe(true);
  });

  it('writes the header in the document order, UTF-8 without BOM, CRLF after each row', async () => {
    const stdout = new MemoryStream();
    await writeDataset({ shape: 'list', batches: from(awkwardResults(1)), columns: FEE_SCHEDULE_RESULT_FIELDS }, options({ format: 'csv', stdout }));
    const text = stdout.text();
    expect(text.startsWith(`${FEE_SCHEDULE_RESULT_FIELD_NAMES.join(',')}\r\n`)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(stdout.chunks[0]?.[0]).toBe('i'.charCodeAt(0));
  });

  it('writes only the header when there are no records', async () => {
    const stdout = new MemoryStream();
    await writeDataset({ shape: 'list', batches: from([]), columns: FEE_SCHEDULE_RESULT_FIELDS.slice(0, 2) }, options({ format: 'csv', stdout }));
    expect(stdout.text()).toBe('id,exchange_name\r\n');
  });

  it('selects and orders --columns', async () => {
    const records = awkwardResults(5);
    const path = join(tempDirs.current.path, 'some.csv');
    await writeDataset(
      { shape: 'list', batches: from(records), columns: FEE_SCHEDULE_RESULT_FIELDS, select: ['fee_notes', 'id'] },
      options({ outputPath: path }),
    );
    const rows = await duckdb.current.rows(`SELECT * FROM ${READ_CSV}`, [path]);
    expect(rows).toEqual(records.map((record) => ({ fee_notes: record.fee_notes, id: record.id })));
  });

  it('flattens a fee schedule into dotted columns', async () => {
    const path = join(tempDirs.current.path, 'fees.csv');
    await writeDataset({ shape: 'object', batches: from([FEES]) }, options({ outputPath: path }));
    expect(await readFile(path, 'utf8')).toBe(
      'exchange,effective_date,fee_schedule.maker_fee,fee_schedule.taker_fee,' +
        'fee_schedule.tier_thresholds.tier_2.volume,fee_schedule.tier_thresholds.tier_2.maker_rebate,' +
        'fee_schedule.tier_thresholds.tier_1.volume,fee_schedule.tier_thresholds.tier_1.maker_rebate,last_updated\r\n' +
        'NYSE,2024-01-01,-0.002,0.003,5000000,-0.0025,1000000,-0.002,2024-05-01T00:00:00Z\r\n',
    );
  });

  it('makes one row per order type, and --columns picks from the flattened names', async () => {
    const path = join(tempDirs.current.path, 'order-types.csv');
    await writeDataset(
      { shape: 'object', batches: from([ORDER_TYPES]), select: ['order_types.type', 'exchange', 'order_types.description'] },
      options({ outputPath: path }),
    );
    const rows = await duckdb.current.rows(`SELECT * FROM ${READ_CSV}`, [path]);
    expect(rows).toEqual(
      ORDER_TYPES.order_types.map((orderType) => ({
        'order_types.type': orderType.type,
        exchange: 'IEX',
        'order_types.description': orderType.description,
      })),
    );
  });
});
