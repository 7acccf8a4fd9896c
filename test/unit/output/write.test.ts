import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELDS } from '../../../src/api/fields.js';
import type { FeeScheduleResult } from '../../../src/api/types.js';
import { InterruptedError, MktError, UsageError } from '../../../src/core/errors.js';
import { FORMATS, type Format } from '../../../src/output/formats.js';
import { PARQUET_ROW_GROUP_ROWS } from '../../../src/output/parquet.js';
import { resolveFormat, writeDataset } from '../../../src/output/write.js';
import { awkwardResults, batched, from, MemoryStream, options, useTempDir } from './helpers.js';

const PREVIOUS = 'the previous export, which must survive\n';

function results(batches: AsyncIterable<readonly FeeScheduleResult[]>) {
  return { shape: 'list' as const, batches, columns: FEE_SCHEDULE_RESULT_FIELDS };
}

/** Turns of the event loop until nothing moves: what the export does before it must wait. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
}

const tempDirs = useTempDir();

describe('resolveFormat', () => {
  const tty = new MemoryStream(true, 80);
  const pipe = new MemoryStream(false);

  it.each([
    [{ outputPath: 'out.csv' }, 'csv'],
    [{ outputPath: 'dir/out.PARQUET' }, 'parquet'],
    [{ outputPath: 'out.ndjson' }, 'ndjson'],
    [{ outputPath: 'out.jsonl' }, 'ndjson'],
    [{ outputPath: 'out.json' }, 'json'],
    [{ outputPath: 'out.txt' }, 'json'],
    [{ outputPath: 'out' }, 'json'],
    [{ outputPath: 'out.csv', format: 'parquet' }, 'parquet'],
    [{ format: 'csv' }, 'csv'],
  ] as const)('%j → %s', (given, format) => {
    expect(resolveFormat({ ...given, stdout: tty })).toBe(format);
  });

  it('is table on a terminal and json elsewhere', () => {
    expect(resolveFormat({ stdout: tty })).toBe('table');
    expect(resolveFormat({ stdout: pipe })).toBe('json');
  });

  it('refuses parquet to a terminal, but not to a pipe or a file', () => {
    expect(() => resolveFormat({ format: 'parquet', stdout: tty })).toThrow(new UsageError('parquet is binary: use -o FILE or redirect stdout'));
    expect(resolveFormat({ format: 'parquet', stdout: pipe })).toBe('parquet');
    expect(resolveFormat({ outputPath: 'x.parquet', stdout: tty })).toBe('parquet');
  });
});

describe('writeDataset to a file', () => {
  it('infers the format from the extension', async () => {
    const path = join(tempDirs.current.path, 'out.jsonl');
    const written = await writeDataset(results(from(awkwardResults(2))), options({ outputPath: path }));
    expect(written.format).toBe('ndjson');
    expect((await readFile(path, 'utf8')).split('\n')).toHaveLength(3);
  });

  it.each(FORMATS)('%s: a failure mid-way leaves the previous file byte-identical and no temporary file', async (format) => {
    const path = join(tempDirs.current.path, `out.${format}`);
    await writeFile(path, PREVIOUS);
    async function* failing() {
      yield* awkwardResults(3);
      throw new Error('the service went away');
    }
    await expect(writeDataset(results(batched(failing())), options({ outputPath: path, format }))).rejects.toThrow('the service went away');
    expect(await readFile(path, 'utf8')).toBe(PREVIOUS);
    expect(await tempDirs.current.files()).toEqual([`out.${format}`]);
  });

  it.each(FORMATS)('%s: Ctrl-C while a page is awaited throws InterruptedError, leaves the previous file and no temporary file', async (format) => {
    const path = join(tempDirs.current.path, `out.${format}`);
    await writeFile(path, PREVIOUS);
    const controller = new AbortController();
    async function* hanging() {
      yield* awkwardResults(3);
      controller.abort(new InterruptedError('SIGTERM'));
      await new Promise(() => {}); // a fetch that never answers
    }
    const failure = await writeDataset(results(batched(hanging())), options({ outputPath: path, format, signal: controller.signal })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InterruptedError);
    expect((failure as InterruptedError).message).toBe('interrupted by SIGTERM');
    expect(await readFile(path, 'utf8')).toBe(PREVIOUS);
    expect(await tempDirs.current.files()).toEqual([`out.${format}`]);
  });

  it('stops between records once aborted, and leaves no file where there was none', async () => {
    const path = join(tempDirs.current.path, 'new.csv');
    const controller = new AbortController();
    let pulled = 0;
    async function* records() {
      for (const record of awkwardResults(10)) {
        pulled++;
        if (pulled === 2) controller.abort();
        yield record;
      }
    }
    await expect(writeDataset(results(batched(records())), options({ outputPath: path, signal: controller.signal }))).rejects.toThrow(InterruptedError);
    expect(pulled).toBe(2);
    expect(await tempDirs.current.files()).toEqual([]);
  });

  it('replaces the previous file on success, keeping its permissions', async () => {
    const path = join(tempDirs.current.path, 'out.csv');
    await writeFile(path, PREVIOUS);
    await chmod(path, 0o600);
    const written = await writeDataset(results(from(awkwardResults(2))), options({ outputPath: path }));
    expect(written).toEqual({ format: 'csv', records: 2, path });
    expect(await readFile(path, 'utf8')).toMatch(/^id,exchange_name,/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await tempDirs.current.files()).toEqual(['out.csv']);
  });

  it('says what is wrong with a path it cannot write, before reading any record', async () => {
    let pulled = 0;
    async function* records() {
      pulled++;
      yield* awkwardResults(1);
    }
    await expect(writeDataset(results(batched(records())), options({ outputPath: join(tempDirs.current.path, 'missing', 'out.csv') }))).rejects.toThrow(MktError);
    await mkdir(join(tempDirs.current.path, 'a-directory'));
    await expect(writeDataset(results(batched(records())), options({ outputPath: join(tempDirs.current.path, 'a-directory') }))).rejects.toThrow(UsageError);
    expect(pulled).toBe(0);
  });

  it('reports a file standing where a directory should be (ENOTDIR) as one line naming the path', async () => {
    await writeFile(join(tempDirs.current.path, 'a-file'), PREVIOUS);
    const path = join(tempDirs.current.path, 'a-file', 'out.csv');
    const writing = writeDataset(results(from(awkwardResults(1))), options({ outputPath: path }));
    await expect(writing).rejects.toThrow(MktError);
    await expect(writing).rejects.toMatchObject({ message: `cannot write ${path}: not a directory (ENOTDIR)`, hint: undefined });
  });
});

describe('writeDataset to stdout', () => {
  it('ends quietly when the reader goes away (mkt … | head)', async () => {
    const head = spawn('head', ['-c', '100'], { stdio: ['pipe', 'ignore', 'inherit'] });
    const exited = new Promise((resolve) => head.on('exit', resolve));
    const total = 1_000_000;
    async function* endless() {
      const [record] = awkwardResults(1);
      for (let index = 0; index < total; index++) yield { ...(record as FeeScheduleResult), id: String(index) };
    }
    const written = await writeDataset(results(batched(endless())), options({ format: 'ndjson', stdout: head.stdin }));
    await exited;
    expect(written.format).toBe('ndjson');
    expect(written.records).toBeLessThan(total);
  });

  it.each(['json', 'ndjson', 'csv'] as const)('%s: writes each page before the next one is fetched', async (format) => {
    const stdout = new MemoryStream();
    const seenAtPageEnd: string[] = [];
    async function* pages() {
      for (let page = 0; page < 3; page++) {
        yield* awkwardResults(5).map((record) => ({ ...record, id: `page-${page}` }));
        await new Promise((resolve) => setImmediate(resolve)); // the next page's request
        seenAtPageEnd.push(stdout.text());
      }
    }
    await writeDataset(results(batched(pages())), options({ format, stdout, signal: new AbortController().signal }));
    for (const [page, text] of seenAtPageEnd.entries()) {
      expect(text).toContain(`page-${page}`);
    }
  });

  it.each([
    ['json', 1_000],
    ['ndjson', 1_000],
    ['csv', 1_000],
    ['parquet', PARQUET_ROW_GROUP_ROWS * 2],
  ] as const)('%s: stops pulling records while the stream is full', async (format: Format, bound: number) => {
    const stuck = new Writable({ highWaterMark: 1024, write() {} }); // never takes a chunk
    const controller = new AbortController();
    let pulled = 0;
    async function* endless() {
      const [record] = awkwardResults(1);
      for (;;) {
        pulled++;
        yield record as FeeScheduleResult;
      }
    }
    const writing = writeDataset(results(batched(endless())), options({ format, stdout: stuck, signal: controller.signal }));
    await settle();
    const before = pulled;
    await settle();
    expect(pulled).toBe(before);
    expect(pulled).toBeLessThan(bound);
    controller.abort();
    await expect(writing).rejects.toThrow(InterruptedError);
  });
});
