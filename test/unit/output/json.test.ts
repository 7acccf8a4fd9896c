import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELDS } from '../../../src/api/fields.js';
import { UsageError } from '../../../src/core/errors.js';
import { writeDataset } from '../../../src/output/write.js';
import { awkwardResults, batched, FEES, from, MemoryStream, options, ORDER_TYPES, useTempDir } from './helpers.js';

const tempDirs = useTempDir();

describe('json', () => {
  it('round-trips every awkward record exactly through a file', async () => {
    const records = awkwardResults();
    const path = join(tempDirs.current.path, 'results.json');
    const written = await writeDataset({ shape: 'list', batches: from(records), columns: FEE_SCHEDULE_RESULT_FIELDS }, options({ outputPath: path }));
    expect(written).toEqual({ format: 'json', records: records.length, path });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(records);
  });

  it('streams an array with one compact record per line', async () => {
    const stdout = new MemoryStream();
    await writeDataset({ shape: 'list', batches: from([{ a: 1 }, { a: 'x\ny' }]) }, options({ format: 'json', stdout }));
    expect(stdout.text()).toBe('[\n  {"a":1},\n  {"a":"x\\ny"}\n]\n');
  });

  it('writes [] when there are no records', async () => {
    const stdout = new MemoryStream();
    const written = await writeDataset({ shape: 'list', batches: from([]) }, options({ format: 'json', stdout }));
    expect(stdout.text()).toBe('[]\n');
    expect(written.records).toBe(0);
  });

  it('writes an exchange object unchanged, pretty-printed', async () => {
    const stdout = new MemoryStream();
    await writeDataset({ shape: 'object', batches: from([FEES]) }, options({ format: 'json', stdout }));
    expect(stdout.text()).toBe(`${JSON.stringify(FEES, null, 2)}\n`);
  });

  it('projects --columns, nesting dotted names again, in the order given', async () => {
    const stdout = new MemoryStream();
    await writeDataset(
      { shape: 'object', batches: from([FEES]), select: ['fee_schedule.taker_fee', 'exchange'] },
      options({ format: 'json', stdout }),
    );
    expect(JSON.parse(stdout.text())).toEqual({ fee_schedule: { taker_fee: 0.003 }, exchange: 'NYSE' });
    expect(Object.keys(JSON.parse(stdout.text()))).toEqual(['fee_schedule', 'exchange']);
  });

  it('rejects an unknown column of an undeclared shape before writing anything', async () => {
    const stdout = new MemoryStream();
    await expect(
      writeDataset({ shape: 'object', batches: from([ORDER_TYPES]), select: ['order_types.kind'] }, options({ format: 'json', stdout })),
    ).rejects.toThrow(UsageError);
    expect(stdout.text()).toBe('');
  });

  it('rejects an unknown column of a declared shape before reading any record', async () => {
    let pulled = 0;
    async function* records() {
      pulled++;
      yield* awkwardResults(1);
    }
    await expect(
      writeDataset({ shape: 'list', batches: batched(records()), columns: FEE_SCHEDULE_RESULT_FIELDS, select: ['fee'] }, options({ format: 'json' })),
    ).rejects.toThrow('unknown column "fee"');
    expect(pulled).toBe(0);
  });
});

describe('ndjson', () => {
  it('writes one record per line, each parsing back to the record', async () => {
    const records = awkwardResults();
    const path = join(tempDirs.current.path, 'results.ndjson');
    await writeDataset({ shape: 'list', batches: from(records), columns: FEE_SCHEDULE_RESULT_FIELDS }, options({ outputPath: path }));
    const text = await readFile(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(records.length);
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(records);
  });

  it('writes an exchange object on one line', async () => {
    const stdout = new MemoryStream();
    await writeDataset({ shape: 'object', batches: from([ORDER_TYPES]) }, options({ format: 'ndjson', stdout }));
    expect(stdout.text()).toBe(`${JSON.stringify(ORDER_TYPES)}\n`);
  });

  it('projects --columns on every line', async () => {
    const records = awkwardResults(3);
    const stdout = new MemoryStream();
    await writeDataset(
      { shape: 'list', batches: from(records), columns: FEE_SCHEDULE_RESULT_FIELDS, select: ['fee_notes', 'id'] },
      options({ format: 'ndjson', stdout }),
    );
    expect(stdout.text()).toBe(records.map((record) => `${JSON.stringify({ fee_notes: record.fee_notes, id: record.id })}\n`).join(''));
  });
});
