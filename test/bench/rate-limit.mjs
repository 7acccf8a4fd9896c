#!/usr/bin/env node
// Issue 5's rate target: against `mkt sandbox --rate 10/1`, a 40-page walk finishes within 1.5×
// of the 4 s the limit allows, with at most a handful of 429s. Runs the built CLI (npm run
// build first) three times against one sandbox on 127.0.0.1 and prints time and 429s per run.
//
//   node test/bench/rate-limit.mjs
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/mkt.js', import.meta.url));
const RUNS = 3;
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

function run(args, extraEnv = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

const sandbox = run(['sandbox', '--port', '0', '--records', '1000', '--rate', '10/1', '--json']);
const { url, api_key: apiKey } = await new Promise((resolve) => {
  let line = '';
  sandbox.child.stdout.on('data', (chunk) => {
    line += chunk;
    if (line.includes('\n')) resolve(JSON.parse(line));
  });
});

let worst = 0;
try {
  for (let index = 1; index <= RUNS; index++) {
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a fresh window for each run
    const started = performance.now();
    const { code, stdout, stderr } = await run(['results', '--all', '--page-size', '25', '-f', 'ndjson', '--verbose'], {
      MKT_BASE_URL: url,
      MKT_API_KEY: apiKey,
    }).done;
    const seconds = (performance.now() - started) / 1000;
    const lines = stderr.split('\n');
    const throttled = lines.filter((line) => line.startsWith('← 429')).length;
    const requests = lines.filter((line) => line.startsWith('→ GET')).length;
    const records = stdout.trimEnd().split('\n').length;
    worst = Math.max(worst, seconds);
    console.log(`run ${index}: exit ${code}, ${records} records, ${requests} requests, ${throttled} × 429, ${seconds.toFixed(2)} s`);
  }
} finally {
  sandbox.child.kill('SIGTERM');
}
console.log(`slowest ${worst.toFixed(2)} s against a target of 6.00 s (1.5 × 4 s): ${worst <= 6 ? 'PASS' : 'FAIL'}`);
