import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// A walk of the mirror long enough for its reads to reach their largest and go on: the rows a
// read leaves over begin the next page. The largest read is made 450 rows (Deps.offlineReadRows),
// past the 400 of the read before it and like the real one no whole number of pages, so that
// reads of 100, 400, 450, 450 and the rest walk fewer than two thousand records rather than the
// tens of thousands the real one needs.
const READ_ROWS = 450;
const sandbox = useSandbox({ records: 1_600 });

it('results --offline --all writes what the service does, over reads of the most rows', async () => {
  const env = { env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: join(tempDir('mkt-mirror-'), 'walk.duckdb') } };
  expect((await runInProcess(['sync'], env)).code).toBe(0);
  const online = await runInProcess(['results', '--all', '-f', 'ndjson'], env);
  const offline = await runInProcess(['results', '--offline', '--all', '-f', 'ndjson'], { ...env, offlineReadRows: READ_ROWS });
  expect(online.code).toBe(0);
  expect(offline).toMatchObject({ code: 0, stderr: '' });
  expect(offline.stdout.split('\n')).toHaveLength(1_601);
  expect(offline.stdout).toBe(online.stdout);
});
