#!/usr/bin/env node
// Time of writing 300 sandbox pages (30,000 records) to Parquet in-process, without the network:
// the pages are fetched once from `mkt sandbox`, then each run is a process of its own (V8 starts
// cold, as in a walk) that parses them one at a time, each page a batch as `mkt results` hands
// them over, and writes them with writeDataset to /dev/null. Prints each run and the median.
//
//   npm run build && node test/bench/parquet-write.mjs [--runs 9] [--format parquet]

import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = 300;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

async function child(dir, format) {
  const { writeDataset } = await import(join(root, 'dist/output/write.js'));
  const { FEE_SCHEDULE_RESULT_FIELDS } = await import(join(root, 'dist/api/fields.js'));
  const bodies = Array.from({ length: PAGES }, (_, page) => readFileSync(join(dir, `${page}.json`)));
  async function* batches() {
    for (const body of bodies) {
      await new Promise((resolve) => setImmediate(resolve));
      yield JSON.parse(body.toString('utf8')).data;
    }
  }
  const started = performance.now();
  await writeDataset(
    { shape: 'list', batches: batches(), columns: FEE_SCHEDULE_RESULT_FIELDS },
    { format, stdout: createWriteStream('/dev/null'), color: false, signal: new AbortController().signal },
  );
  process.stdout.write(`${(performance.now() - started).toFixed(0)}\n`);
}

async function parent() {
  const runs = Number(option('runs', '9'));
  const format = option('format', 'parquet');
  const dir = mkdtempSync(join(tmpdir(), 'mkt-parquet-write-'));
  const sandbox = spawn(process.execPath, [join(root, 'bin/mkt.js'), 'sandbox', '--port', '0', '--records', String(PAGES * 100), '--json']);
  try {
    const { value: line } = await createInterface({ input: sandbox.stdout })[Symbol.asyncIterator]().next();
    const { url, api_key: key } = JSON.parse(line);
    for (let page = 0; page < PAGES; page++) {
      const response = await fetch(`${url}/api/v1/fee-schedule-results?page_size=100&page_number=${page}`, { headers: { 'x-service-api-access-key': key } });
      writeFileSync(join(dir, `${page}.json`), Buffer.from(await response.arrayBuffer()));
    }
    sandbox.kill(); // now, rather than in finally: it would share the CPUs with the runs
    const times = [];
    for (let run = 0; run < runs; run++) {
      const result = spawnSync(process.execPath, [here, '--child', dir, format], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(result.stderr);
      times.push(Number(result.stdout));
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(runs / 2)];
    console.log(`${format}, ${PAGES} pages in-process: ${times.join(' ')} ms; median ${median} ms (Node ${process.version})`);
  } finally {
    sandbox.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else await parent();
