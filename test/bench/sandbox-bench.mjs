// Measures the two scale targets of `mkt sandbox` (issue 2) and prints the figures:
//   1. `--records 1000000` is ready and serves page 9000 within 10 s of start, RSS under 1 GB;
//   2. unfiltered pages of 100 records are served at >= 1,000 pages/s.
// Runs the built CLI (`npm run build` first) on 127.0.0.1 only, with a bounded number of requests.
//
//   node test/bench/sandbox-bench.mjs [--records N] [--pages N] [--connections N]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    pages: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '4' },
  },
});
const RECORDS = Number(values.records);
const PAGES = Number(values.pages);
const CONNECTIONS = Number(values.connections);
const PAGE_SIZE = 100;
const MAX_SECONDS = 60;
const BIN = fileURLToPath(new URL('../../bin/mkt.js', import.meta.url));
const RESULTS_PATH = '/api/v1/fee-schedule-results';

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** CPU time (user + system) a process has used, in ms. */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** GET, reading the whole body; resolves to { status, bytes, body? }. */
function get(url, key, keepBody = false) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'x-service-api-access-key': key } }, (res) => {
      let bytes = 0;
      const chunks = [];
      res.on('data', (chunk) => {
        bytes += chunk.length;
        if (keepBody) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes, body: keepBody ? Buffer.concat(chunks).toString('utf8') : undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function startCli() {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', '--records', String(RECORDS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), MAX_SECONDS * 1000);
  const exited = new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(killer);
    resolve(code);
  }));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const end = stdout.indexOf('\n');
      if (end >= 0) resolve({ child, started, readyMs: performance.now() - started, ...JSON.parse(stdout.slice(0, end)), exited });
    });
    child.on('error', reject);
    exited.then((code) => reject(new Error(`sandbox exited early with ${code}`)));
  });
}

// Other work on the machine skews the wall-clock rate; the CPU time per page does not.
const loadAtStart = loadavg().map((load) => Number(load.toFixed(2)));
const sandbox = await startCli();
const page9000 = await get(`${sandbox.url}${RESULTS_PATH}?page_size=${PAGE_SIZE}&page_number=9000`, sandbox.api_key, true);
const page9000Ms = performance.now() - sandbox.started;
const page9000Body = JSON.parse(page9000.body);
const afterStart = memoryOf(sandbox.child.pid);

// Throughput: unfiltered pages of 100, spread over the whole dataset, CONNECTIONS at a time.
const lastPage = Math.max(1, Math.ceil(RECORDS / PAGE_SIZE));
let next = 0;
let bytes = 0;
let failures = 0;
const deadline = performance.now() + MAX_SECONDS * 1000;
const throughputStarted = performance.now();
const serverCpuBefore = cpuMsOf(sandbox.child.pid);
const clientCpuBefore = process.cpuUsage();
await Promise.all(
  Array.from({ length: CONNECTIONS }, async () => {
    while (next < PAGES && performance.now() < deadline) {
      const page = (next++ * 7919) % lastPage;
      const answer = await get(`${sandbox.url}${RESULTS_PATH}?page_size=${PAGE_SIZE}&page_number=${page}`, sandbox.api_key);
      if (answer.status !== 200) failures++;
      bytes += answer.bytes;
    }
  }),
);
const throughputSeconds = (performance.now() - throughputStarted) / 1000;
const serverCpuMsPerPage = (cpuMsOf(sandbox.child.pid) - serverCpuBefore) / next;
const clientCpu = process.cpuUsage(clientCpuBefore);
const clientCpuMsPerPage = (clientCpu.user + clientCpu.system) / 1000 / next;
const afterThroughput = memoryOf(sandbox.child.pid);

// First use of each other order and of a filter: the one-off cost of a sort or a scan.
const firstUse = {};
for (const query of ['order_by=supplier_name', 'order_by=fee_category&order_dir=asc', 'fee_type=Option&latest_only=true', 'exchange_name=NYSE&exchange_name=IEX']) {
  const t = performance.now();
  const answer = await get(`${sandbox.url}${RESULTS_PATH}?page_size=${PAGE_SIZE}&page_number=10&${query}`, sandbox.api_key);
  firstUse[query] = `${(performance.now() - t).toFixed(0)} ms (status ${answer.status})`;
}

agent.destroy();
sandbox.child.kill('SIGTERM');
const exitCode = await sandbox.exited;

const figures = {
  load_average_at_start: loadAtStart,
  node: process.version,
  cpus: availableParallelism(),
  records: RECORDS,
  ready_ms: Math.round(sandbox.readyMs),
  page_9000_served_ms_after_spawn: Math.round(page9000Ms),
  page_9000: { status: page9000.status, records: page9000Body.data.length, current_page: page9000Body.current_page, total_records: page9000Body.total_records },
  rss_mb_after_page_9000: Math.round(afterStart.rssMb),
  throughput: {
    pages: next,
    connections: CONNECTIONS,
    seconds: Number(throughputSeconds.toFixed(2)),
    pages_per_second: Math.round(next / throughputSeconds),
    mb_per_second: Number((bytes / 1e6 / throughputSeconds).toFixed(1)),
    mean_page_kb: Number((bytes / next / 1e3).toFixed(1)),
    failures,
    server_cpu_ms_per_page: Number(serverCpuMsPerPage.toFixed(3)),
    client_cpu_ms_per_page: Number(clientCpuMsPerPage.toFixed(3)),
    // What the server's one thread could serve if the client ran elsewhere.
    server_capacity_pages_per_second: Math.round(1000 / serverCpuMsPerPage),
  },
  rss_mb_after_throughput: Math.round(afterThroughput.rssMb),
  peak_rss_mb: Math.round(afterThroughput.peakMb),
  first_use_of_an_order_or_filter: firstUse,
  exit_code_on_sigterm: exitCode,
};
console.log(JSON.stringify(figures, null, 2));
const ok = page9000Ms < 10_000 && afterThroughput.peakMb < 1024 && next / throughputSeconds >= 1000 && failures === 0 && exitCode === 0;
console.log(ok ? 'PASS: both targets met' : 'FAIL: a target was missed');
process.exitCode = ok ? 0 : 1;
