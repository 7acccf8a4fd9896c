#!/usr/bin/env node
// The rate target: against `mkt sandbox --rate 20/2`, a 100-page walk finishes within 1.1× of
// the least time the limit allows, with at most one 429. Runs the built CLI (npm run build
// first) three times against one sandbox on 127.0.0.1.
//
//   node test/bench/rate-limit.mjs [--json]
//
// With --json it prints one line for `npm run bench` (test/bench/run.js): the worst run's ratio
// and 429s, and the report's lines as `summary`.
// The sandbox's windows are aligned to the clock, so the least time depends on when in its
// window a walk starts: its N accepted requests need ceil(N / 20) windows, the first being the
// one it starts in, and the least time runs from its start to the start of the last of them
// (where its last request can first be sent). Each run starts in a fresh window, early in it:
// the CLI takes a few hundred ms to send its first request (more on a loaded machine, which
// the run prints), and a walk that starts late in a window cannot spend that window's budget
// whatever the gate does, so there the figure would measure start-up, not the gate.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { usersEnv } from './interleaved.mjs';

const BIN = fileURLToPath(new URL('../../bin/mkt.js', import.meta.url));
const BUDGET = 20;
const WINDOW_MS = 2000;
const PAGE_SIZE = 100;
const PAGES = 100;
const RECORDS = PAGES * PAGE_SIZE;
/** Where in its window each run starts, in ms. */
const PHASES_MS = [100, 300, 500];
const TARGET_RATIO = 1.1;
const MAX_429 = 1;

const asJson = process.argv.includes('--json');
const report = [];
const say = (line) => (asJson ? report.push(line) : console.log(line));
let worstRatio = 0;
let mostThrottled = 0;

const env = usersEnv();

function run(args, extraEnv = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // When the first request and the last answer were logged: stderr to a pipe is written
  // synchronously, so these are the times the CLI wrote them, give or take the pipe.
  let firstRequestAt;
  let lastAnswerAt;
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (firstRequestAt === undefined && stderr.includes('→ ')) firstRequestAt = Date.now();
    if (String(chunk).includes('← ')) lastAnswerAt = Date.now();
  });
  return {
    child,
    done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, firstRequestAt, lastAnswerAt }))),
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const windowStart = (at) => Math.floor(at / WINDOW_MS) * WINDOW_MS;

const sandbox = run(['sandbox', '--port', '0', '--json', '--rate', `${BUDGET}/${WINDOW_MS / 1000}`, '--records', String(RECORDS)]);
const { url, api_key: apiKey } = await new Promise((resolve, reject) => {
  let line = '';
  sandbox.child.stdout.on('data', (chunk) => {
    line += chunk;
    if (line.includes('\n')) resolve(JSON.parse(line));
  });
  sandbox.done.then(({ code, stderr }) => reject(new Error(`the sandbox exited (${code}): ${stderr}`)));
});

say(`mkt results --all --page-size ${PAGE_SIZE} over ${RECORDS} records, against mkt sandbox --rate ${BUDGET}/${WINDOW_MS / 1000}`);
let passed = true;
try {
  for (const [index, phase] of PHASES_MS.entries()) {
    // The next window, so the previous run's requests have left the budget whole.
    await sleep(windowStart(Date.now()) + WINDOW_MS + phase - Date.now());
    const started = Date.now();
    const { code, stdout, stderr, firstRequestAt, lastAnswerAt } = await run(['results', '--all', '--page-size', String(PAGE_SIZE), '-f', 'ndjson', '-v'], {
      MKT_BASE_URL: url,
      MKT_API_KEY: apiKey,
    }).done;
    const finished = Date.now();
    // One `← STATUS …` line per answer; a refused request does not count against the budget.
    const statuses = stderr.split('\n').flatMap((line) => (line.startsWith('← ') ? [line.split(' ')[1]] : []));
    const throttled = statuses.filter((status) => status === '429').length;
    const accepted = statuses.length - throttled;
    const records = stdout === '' ? 0 : stdout.trimEnd().split('\n').length;
    const windows = Math.ceil(accepted / BUDGET);
    const lastWindow = windowStart(started) + (windows - 1) * WINDOW_MS;
    const leastMs = lastWindow - started;
    const tookMs = finished - started;
    const ratio = tookMs / leastMs;
    const ok = code === 0 && records === RECORDS && leastMs > 0 && ratio <= TARGET_RATIO && throttled <= MAX_429;
    passed &&= ok;
    worstRatio = Math.max(worstRatio, ratio);
    mostThrottled = Math.max(mostThrottled, throttled);
    say(
      `run ${index + 1}: exit ${code}, ${records} records, ${statuses.length} requests, ${throttled} × 429, ` +
        `started ${((started - windowStart(started)) / 1000).toFixed(2)} s into a window, ` +
        `first request ${(((firstRequestAt ?? Number.NaN) - started) / 1000).toFixed(2)} s later, ` +
        `${(tookMs / 1000).toFixed(2)} s against a least ${(leastMs / 1000).toFixed(2)} s (${windows} windows): ` +
        `${ratio.toFixed(3)}× ${ok ? 'PASS' : 'FAIL'} ` +
        `(after the last window opened: last answer +${((lastAnswerAt - lastWindow) / 1000).toFixed(2)} s, exit +${((finished - lastWindow) / 1000).toFixed(2)} s)`,
    );
    if (code !== 0) say(stderr.split('\n').filter((line) => !line.startsWith('→ ') && !line.startsWith('← ')).join('\n'));
  }
} finally {
  sandbox.child.kill('SIGTERM');
}
say(`target: within ${TARGET_RATIO}× of the least time, at most ${MAX_429} × 429 a run: ${passed ? 'PASS' : 'FAIL'}`);
if (asJson) console.log(JSON.stringify({ pages: PAGES, ratio: worstRatio, rejected: mostThrottled, summary: report.join('\n') }));
process.exitCode = passed ? 0 : 1;
