import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { openDuckDB } from '../helpers/duckdb.js';
import { useRelays } from '../helpers/relay.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { spawnMkt } from '../helpers/run-mkt.js';
import { committedAndStuck, killedFirstSync, PAGES, pagesAsked, RECORDS } from '../helpers/stopped-sync.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 16: a killed or interrupted sync carries on from its last commit. Apart from
// mirror-killed-withdrawn.test.ts, which vitest may then run on another worker.
const relay = useRelays();

describe('a sync stopped in its process', () => {
  it('carries on a killed first sync from its last commit, fetching no committed page again', async () => {
    const sandbox = await startSandbox({ port: 0, records: RECORDS });
    try {
      const counted = await relay(sandbox.url);
      const { mirror, env } = await killedFirstSync(sandbox, counted);

      const duck = await openDuckDB();
      await duck.rows(`ATTACH '${mirror}' AS m (READ_ONLY)`);
      const [walk] = await duck.rows('SELECT next_page, (SELECT count(*) FROM m.mkt_walk_results)::INTEGER AS staged FROM m.mkt_walk');
      duck.close();
      const committed = walk?.next_page as number;
      expect(committed).toBeGreaterThan(0);
      expect(walk?.staged).toBe(committed * 100);

      const before = counted.requests.length;
      // In-process from here: what is about processes is the kill.
      const resumed = await runInProcess(['sync', '-f', 'json'], { env });
      expect(resumed.code).toBe(0);
      // The pages not committed, and the newest record, which tells the service is as the killed walk found it.
      expect(JSON.parse(resumed.stdout)).toMatchObject({ new_records: RECORDS, total_records: RECORDS, full_walk: true, requests: PAGES + 1 - committed });
      // Pages are asked a few at a time: they may arrive in any order.
      const asked = pagesAsked(counted.requests.slice(before)).sort((a, b) => Number(a.split(' ')[1]) - Number(b.split(' ')[1]));
      expect(asked.filter((page) => page.startsWith('asc '))).toEqual(Array.from({ length: PAGES - committed }, (_, index) => `asc ${committed + index}`));
      expect(asked.filter((page) => !page.startsWith('asc '))).toEqual(['desc 0']);
      const online = await runInProcess(['results', '--all', '-f', 'ndjson'], { env });
      const offline = await runInProcess(['results', '--offline', '--all', '-f', 'ndjson'], { env });
      expect(offline.stdout).toBe(online.stdout);
      expect(offline.stdout.split('\n')).toHaveLength(RECORDS + 1);
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  it('says at Ctrl-C that a sync keeps what it committed, and the next carries on from there', async () => {
    const sandbox = await startSandbox({ port: 0, records: RECORDS });
    try {
      const counted = await relay(sandbox.url);
      const env = { MKT_BASE_URL: counted.url, MKT_API_KEY: sandbox.keys.api_key, MKT_MIRROR: join(tempDir('mkt-mirror-'), 'stopped.duckdb') };
      const stopped = spawnMkt(['sync'], { env });
      await committedAndStuck(counted);
      stopped.child.kill('SIGINT');
      const run = await stopped.result;
      counted.release();
      expect(run.code).toBe(130);
      expect(run.stderr).toBe('mkt: interrupted by SIGINT\nThe mirror keeps what this sync committed; the next `mkt sync` carries on.\n');
      const resumed = await runInProcess(['sync', '-f', 'json'], { env });
      expect(resumed.code).toBe(0);
      const summary = JSON.parse(resumed.stdout) as { new_records: number; requests: number };
      expect(summary.new_records).toBe(RECORDS);
      expect(summary.requests).toBeLessThan(PAGES);
    } finally {
      await sandbox.close();
    }
  }, 60_000);

});
