import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FeeScheduleResult, FeeScheduleResultsPage } from '../../src/api/types.js';
import { addVersions } from '../contract/http.js';
import { copyMirror } from '../helpers/mirror-copy.js';
import { startRelay } from '../helpers/relay.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 36, point 4: a record the service answers differently under an id the mirror holds is
// taken from the service and counted as changed, however little a sync reads.
const sandbox = useSandbox({ records: 150, seed: 36 });

/** What the service now answers of a record the mirror holds: `record` with some fields changed. */
type Rewrite = (record: FeeScheduleResult) => FeeScheduleResult;

/** A relay to the sandbox whose results pass through `rewrite`, once one is set. */
async function rewritingService() {
  const state: { rewrite?: Rewrite } = {};
  const server = await startRelay(sandbox.current.url, {
    rewrite: (request, status, text) => {
      if (!state.rewrite || status !== 200 || !request.url.includes('fee-schedule-results')) return text;
      const page = JSON.parse(text) as FeeScheduleResultsPage;
      return JSON.stringify({ ...page, data: (page.data as FeeScheduleResult[]).map(state.rewrite) });
    },
  });
  return { server, state };
}

/** The mirror's answer, byte for byte the service's. */
async function expectMirrorEqualsService(env: Record<string, string>): Promise<void> {
  const online = await runInProcess(['results', '--all', '-f', 'ndjson'], { env });
  const offline = await runInProcess(['results', '--offline', '--all', '-f', 'ndjson'], { env });
  expect(online.code).toBe(0);
  expect(offline).toMatchObject({ code: 0, stderr: '' });
  expect(offline.stdout).toBe(online.stdout);
}

type Summary = { new_records: number; requests: number; total_records: number; full_walk: boolean };

/**
 * One rewriting relay for the file, and one first sync through it of the sandbox with a new NYSE
 * version: each test rewrites its mirror's service as it pleases, from the service as it was.
 * The state test takes that mirror itself, with the state the sync left in `cache` (a state is
 * believed of the file it was written for, not of a copy); the mirror test a copy made before.
 */
let service: Awaited<ReturnType<typeof rewritingService>>;
const first = {} as { mirror: string; cache: string; copy: string; nyse: { version_id: string; records: number }; summary: Summary };
beforeAll(async () => {
  service = await rewritingService();
  first.nyse = (await addVersions(sandbox.current, { exchange_name: 'NYSE', fee_type: 'Equity', added: 3 }))[0]!;
  first.mirror = join(tempDir('mkt-mirror-'), 'm.duckdb');
  first.cache = tempDir('mkt-cache-');
  const env = { MKT_BASE_URL: service.server.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: first.mirror, MKT_CACHE_DIR: first.cache };
  const run = await runInProcess(['sync', '-f', 'json', '--exit-code'], { env });
  expect(run.code).toBe(10);
  first.summary = JSON.parse(run.stdout) as Summary;
  first.copy = copyMirror(first.mirror);
});
afterAll(() => service?.server.close());
beforeEach(() => {
  delete service.state.rewrite;
});

describe('a record the service answers differently under an id the mirror holds', () => {
  // With a shared cache directory, the sync that finds nothing new is told from one request and
  // the state the last sync left; with a fresh one, from the newest page read against the mirror.
  for (const told of ['the state the last sync left', 'the mirror']) {
    it(`is taken from the service and counted as changed, told from ${told}`, async () => {
      const { server, state } = service;
      const { nyse } = first;
      const fromState = told === 'the state the last sync left';
      const mirror = fromState ? first.mirror : first.copy;
      const cache: Record<string, string> = fromState ? { MKT_CACHE_DIR: first.cache } : {};
      const env = { MKT_BASE_URL: server.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: mirror, ...cache };
      const sync = async () => {
        const run = await runInProcess(['sync', '-f', 'json', '--exit-code'], { env });
        return { code: run.code, stderr: run.stderr, summary: JSON.parse(run.stdout) as Summary };
      };
      // The first sync's state tells the change from one request. With a fresh cache every sync
      // finds it from the newest page read against the mirror, and so does one that finds nothing new, as this test's last.
      // As a restarted sandbox once did: the NYSE version's ids, now an IEX version's, with the same count.
      state.rewrite = (record) => (record.version_id === nyse.version_id
        ? { ...record, exchange_name: 'IEX', version_id: '00000000-0000-4000-8000-000000000036', fee_notes: `${record.fee_notes ?? ''} (IEX)` }
        : record);
      const changed = await sync();
      expect(changed.code).toBe(10);
      expect(changed.summary).toMatchObject({ new_records: 0, total_records: first.summary.total_records, full_walk: true });
      expect(changed.stderr).toMatch(new RegExp(`\\b${nyse.records} records changed\\b`));
      await expectMirrorEqualsService(env);
      // What the full walk that takes the changes keeps, the same walk however the change was told: read once.
      if (fromState) {
        const iex = await runInProcess(['results', '--offline', '--exchange-name', 'IEX', '--latest-only', '--all', '-f', 'ndjson'], { env });
        expect(iex.stdout.split('\n').filter((line) => line.includes('00000000-0000-4000-8000-000000000036'))).toHaveLength(nyse.records);
        const syncs = await runInProcess(['sql', 'SELECT changed_records FROM mkt_syncs ORDER BY finished_at DESC LIMIT 1', '-f', 'csv'], { env });
        expect(syncs.stdout).toBe(`changed_records\r\n${nyse.records}\r\n`);
      }

      // One field of one record, the newest.
      const [newest] = (JSON.parse((await runInProcess(['results', '--page-size', '1', '-f', 'json'], { env })).stdout) as FeeScheduleResult[]);
      const before = state.rewrite;
      state.rewrite = (record) => (record.id === newest!.id ? { ...before(record), fee_amount: '$0.00036' } : before(record));
      const one = await sync();
      expect(one).toMatchObject({ code: 10, summary: { new_records: 0, full_walk: true } });
      expect(one.stderr).toMatch(/\b1 record changed\b/);
      await expectMirrorEqualsService(env);
      expect((await sync()).summary).toMatchObject({ new_records: 0, requests: 1, full_walk: false });
    });
  }
});
