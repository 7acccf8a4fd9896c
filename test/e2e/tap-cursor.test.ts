import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELDS } from '../../src/api/fields.js';
import { emptyResultsPage, sendJson, startRecordingServer } from '../helpers/recording-server.js';
import { run } from '../../src/main.js';
import { memoryDeps, runInProcess } from '../helpers/run-in-process.js';
import { readSingerMessages, type SingerStateValue } from '../helpers/singer-messages.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 41, point 2: with --state, only the records after the bookmark; records that tie on
// created_on are told apart by id, so none is lost or doubled across runs, at a page boundary
// and after a run stopped past a STATE. A server of our own pages by 2, so a STATE (every 100
// pages) comes after 200 records, and ties its records otherwise newest first than oldest first.

const PAGE = 2;
type Row = Record<string, unknown>;

const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (second: number) => `2026-01-01T00:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}.000000`;

/** An interface record: every field of the document, the nullable ones null. */
function row(n: number, createdOn: string): Row {
  const values: Row = { id: idOf(n), scraped_time: '2026-01-01T00:00:00.000000+00:00', created_on: createdOn };
  return Object.fromEntries(FEE_SCHEDULE_RESULT_FIELDS.map((field) => [field.name, values[field.name] ?? (field.nullable ? null : `${field.name} ${n}`)]));
}

const byAscending = (a: Row, b: Row) => ((a.created_on as string) < (b.created_on as string) ? -1 : (a.created_on as string) > (b.created_on as string) ? 1 : (a.id as string) < (b.id as string) ? -1 : 1);
// Newest first, but ties in the same id order as oldest first: the service's to choose.
const byDescending = (a: Row, b: Row) => ((a.created_on as string) > (b.created_on as string) ? -1 : (a.created_on as string) < (b.created_on as string) ? 1 : (a.id as string) < (b.id as string) ? -1 : 1);

interface Service {
  rows: Row[];
  /** Oldest-first pages from this one on answer a malformed body: the run stops there. */
  failFrom?: number;
  /** Changes a page's answer. */
  page?: (body: Row, pageNumber: number, descending: boolean) => Row;
  /** An oldest-first page answered this late (ms), after those asked for after it. */
  late?: { page: number; ms: number };
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function startService(service: Service) {
  const server = await startRecordingServer(async (request, response) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const pageNumber = Number(query.get('page_number') ?? 0);
    const descending = query.get('order_dir') !== 'asc';
    if (!descending && service.failFrom !== undefined && pageNumber >= service.failFrom) return sendJson(response, 200, { oops: true });
    if (!descending && service.late?.page === pageNumber) await new Promise((resolve) => setTimeout(resolve, service.late?.ms));
    const ordered = [...service.rows].sort(descending ? byDescending : byAscending);
    const body: Row = {
      ...emptyResultsPage(PAGE, pageNumber),
      data: ordered.slice(pageNumber * PAGE, (pageNumber + 1) * PAGE),
      total_records: ordered.length,
      total_pages: Math.ceil(ordered.length / PAGE),
    };
    sendJson(response, 200, service.page ? service.page(body, pageNumber, descending) : body);
  });
  closers.push(server.close);
  return server;
}

function jsonFile(name: string, value: unknown): string {
  const file = join(tempDir('mkt-tap-'), name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

async function tap(url: string, state?: SingerStateValue) {
  const args = ['tap', '--config', jsonFile('config.json', { base_url: url })];
  if (state) args.push('--state', jsonFile('state.json', state));
  return runInProcess(args, { env: { MKT_API_KEY: 'k-tap-0123456789abcdef' }, maxRetryDelayMs: 0 });
}

const url0 = 'http://x';
const ids = (records: readonly { record: Row }[]) => records.map((message) => message.record.id);

describe('the bookmark of mkt tap', () => {
  it('loses and doubles nothing across a run stopped after a STATE inside a tie, the next run, and ties added at the bookmark', async () => {
    // 210 records, one a second, but 196 to 203 share one created_on: the tie spans pages 98 to 101.
    // Page 100's failure is in before page 99: the STATE after page 99 still reaches the target.
    const rows = Array.from({ length: 210 }, (_, n) => row(n, at(n >= 196 && n <= 203 ? 196 : n)));
    const service: Service = { rows, failFrom: 100, late: { page: 99, ms: 100 } };
    const { url } = await startService(service);

    const first = await tap(url);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/^mkt: 127\.0\.0\.1:\d+ sent a malformed answer: .*\n/);
    const run1 = readSingerMessages(first.stdout);
    expect(run1.types).toEqual(['SCHEMA', ...Array(200).fill('RECORD'), 'STATE']);
    expect(run1.states).toEqual([{ bookmarks: { fee_schedule_results: { created_on: `${at(196)}+00:00`, ids_at_cursor: [196, 197, 198, 199].map(idOf) } } }]);

    // The next run goes on from that STATE: the rest of the tie, then what follows.
    service.failFrom = undefined;
    service.late = undefined;
    const second = await tap(url, run1.states[0]);
    expect(second.code).toBe(0);
    const run2 = readSingerMessages(second.stdout);
    // Sent oldest first; the tie in the reverse of the order newest first gave it.
    expect(ids(run2.records)).toEqual([203, 202, 201, 200, 204, 205, 206, 207, 208, 209].map(idOf));
    expect([...ids(run1.records), ...ids(run2.records)].sort()).toEqual(rows.map((record) => record.id));
    const state2 = run2.states.at(-1) as SingerStateValue;
    expect(state2).toEqual({ bookmarks: { fee_schedule_results: { created_on: `${at(209)}+00:00`, ids_at_cursor: [idOf(209)] } } });

    // Records added at the bookmark's created_on, with ids on either side of the one sent, and after it.
    const before = { ...row(300, at(209)), id: '00000000-0000-4000-7000-000000000300' };
    rows.push(before, row(900, at(209)), row(901, at(300)), row(902, at(301)));
    const third = await tap(url, state2);
    expect(third.code).toBe(0);
    const run3 = readSingerMessages(third.stdout);
    expect(ids(run3.records)).toEqual([idOf(900), before.id, idOf(901), idOf(902)]);
    expect(run3.states.at(-1)).toEqual({ bookmarks: { fee_schedule_results: { created_on: `${at(301)}+00:00`, ids_at_cursor: [idOf(902)] } } });
  });

  it('finds a bookmark more than 10 pages back oldest first, and walks on from its page, the rest of its tie first', async () => {
    // 60 records on 30 pages; 4 to 7 share one created_on, and the bookmark holds 4 and 5 of them.
    const rows = Array.from({ length: 60 }, (_, n) => row(n, at(n >= 4 && n <= 7 ? 4 : n)));
    const server = await startService({ rows });
    const run = await tap(server.url, { bookmarks: { fee_schedule_results: { created_on: `${at(4)}+00:00`, ids_at_cursor: [idOf(4), idOf(5)] } } });
    expect(run.code).toBe(0);
    const messages = readSingerMessages(run.stdout);
    expect(ids(messages.records)).toEqual(rows.slice(6).map((record) => record.id));
    expect(messages.types).toEqual(['SCHEMA', ...Array(54).fill('RECORD'), 'STATE']);
    // 10 pages newest first; pages 15, 7, 3, 1 and 2 oldest first, halving to page 1; then pages 1 to 29.
    const asked = server.requests.map((request) => new URL(request.url, url0).searchParams).map((query) => `${query.get('order_dir')} ${query.get('page_number')}`);
    expect(asked.slice(0, 15)).toEqual([...Array.from({ length: 10 }, (_, page) => `desc ${page}`), 'asc 15', 'asc 7', 'asc 3', 'asc 1', 'asc 2']);
    expect(asked.slice(15).sort()).toEqual(Array.from({ length: 29 }, (_, page) => `asc ${page + 1}`).sort());
    expect(run.stderr).toBe('sent 54 records of fee_schedule_results in 44 requests\n');
  });

  it('writes a STATE after every 100 pages and at the end', async () => {
    const { url } = await startService({ rows: Array.from({ length: 206 }, (_, n) => row(n, at(n))) });
    const run = await tap(url);
    expect(run.code).toBe(0);
    const messages = readSingerMessages(run.stdout);
    expect(messages.types).toEqual(['SCHEMA', ...Array(200).fill('RECORD'), 'STATE', ...Array(6).fill('RECORD'), 'STATE']);
    expect(messages.states.map((state) => state.bookmarks.fee_schedule_results.created_on)).toEqual([`${at(199)}+00:00`, `${at(205)}+00:00`]);
  });

  it('stops at a malformed record with exit 1: every line written is whole, and none of its page', async () => {
    const rows = Array.from({ length: 6 }, (_, n) => row(n, at(n)));
    (rows[3] as Row).fee_type = 5;
    const { url } = await startService({ rows });
    const run = await tap(url);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^mkt: 127\\.0\\.0\\.1:\\d+ sent a malformed answer: record ${idOf(3)} has a number as fee_type, not text\\n$`));
    expect(ids(readSingerMessages(run.stdout).records)).toEqual([0, 1].map(idOf));
  });

  it('stops at records out of created_on order, and at a count that falls while it reads back to the bookmark, sending nothing', async () => {
    const rows = Array.from({ length: 6 }, (_, n) => row(n, at(n)));
    const unordered = await startService({ rows, page: (body, pageNumber) => (pageNumber === 1 ? { ...body, data: [...(body.data as Row[])].reverse() } : body) });
    const run = await tap(unordered.url);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^mkt: 127\\.0\\.0\\.1:\\d+ sent a malformed answer: the records are not in created_on order \\(record ${idOf(2)}\\)\\n$`));

    const state = { bookmarks: { fee_schedule_results: { created_on: `${at(0)}+00:00`, ids_at_cursor: [idOf(0)] } } };
    const shrinking = await startService({ rows, page: (body, pageNumber) => (pageNumber === 1 ? { ...body, total_records: 5, total_pages: 3, data: (body.data as Row[]).slice(0, 1) } : body) });
    const fell = await tap(shrinking.url, state);
    expect(fell).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'mkt: the results changed during the run: total_records fell from 6 to 5 (page 1)\nRun it again: nothing was sent, and the state is where it was.\n',
    });
  });

  it('stops when the count changes under a run without --state, keeping the STATEs written, in its own words', async () => {
    const rows = Array.from({ length: 6 }, (_, n) => row(n, at(n)));
    const { url } = await startService({ rows, page: (body, pageNumber) => (pageNumber === 2 ? { ...body, total_records: 7, total_pages: 4 } : body) });
    const run = await tap(url);
    expect(run).toMatchObject({
      code: 1,
      stderr: 'mkt: total_records changed from 6 to 7 during the walk (page 2)\nThe results changed during the run: run it again with the last STATE written, which loses nothing.\n',
    });
    expect(readSingerMessages(run.stdout).types).toEqual(['SCHEMA', 'RECORD', 'RECORD', 'RECORD', 'RECORD']);
  });

  it('says so with exit 1 when the target stops reading: its last STATE taken is where the next run starts', async () => {
    const { url } = await startService({ rows: Array.from({ length: 6 }, (_, n) => row(n, at(n))) });
    const deps = memoryDeps({ env: { MKT_API_KEY: 'k-tap-0123456789abcdef' } });
    const gone = new Writable({ write: (_chunk, _encoding, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
    const code = await run(['tap', '--config', jsonFile('config.json', { base_url: url })], { ...deps, stdout: gone });
    expect(code).toBe(1);
    expect(deps.stderr.text()).toBe('mkt: the target stopped reading the messages (a broken pipe)\nSee why the Singer target ended: the last STATE it took is where the next run starts.\n');
  });
});
