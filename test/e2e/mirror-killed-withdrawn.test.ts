import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { openDuckDB } from '../helpers/duckdb.js';
import { useRelays } from '../helpers/relay.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { killedFirstSync, RECORDS } from '../helpers/stopped-sync.js';

// Issue 16: a killed sync carries on from its last commit, even after the service withdrew a version it committed.
const relay = useRelays();

describe('a killed sync and a withdrawn version', () => {
  it('carries on a killed first sync after a version it had committed is withdrawn, to a mirror that equals the service', async () => {
    const sandbox = await startSandbox({ port: 0, records: RECORDS });
    try {
      const { mirror, env } = await killedFirstSync(sandbox, await relay(sandbox.url));
      // The service withdraws the version of the walk's first committed record: every later record moves back.
      const duck = await openDuckDB();
      await duck.rows(`ATTACH '${mirror}' AS m (READ_ONLY)`);
      const [first] = await duck.rows('SELECT version_id FROM m.mkt_walk_results LIMIT 1');
      duck.close();
      const withdrawn = await fetch(`${sandbox.url}/__sandbox/versions/${first?.version_id as string}`, { method: 'DELETE' });
      expect(withdrawn.status).toBe(200);

      const resumed = await runInProcess(['sync', '-f', 'json'], { env });
      expect(resumed.code).toBe(0);
      const online = await runInProcess(['results', '--all', '-f', 'ndjson'], { env });
      const offline = await runInProcess(['results', '--offline', '--all', '-f', 'ndjson'], { env });
      expect(offline.stdout).toBe(online.stdout);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ total_records: online.stdout.split('\n').length - 1, full_walk: true });
    } finally {
      await sandbox.close();
    }
  }, 90_000);

});
