// Timing shell commands interleaved, for `npm run bench` (run.js) and for comparing two builds
// (compare-builds.mjs); and the environment every bench gives what it runs.
import { spawnSync } from 'node:child_process';

/**
 * The environment a user's shell would give the commands: these machines set
 * NODE_EXTRA_CA_CERTS, users do not, and it costs every node start ~50 ms.
 */
export function usersEnv() {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** The middle of sorted numbers. */
export const middle = (sorted) => (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2;

/**
 * Times shell commands, interleaved: each round runs every command once, starting one further
 * along each time, so that a machine which speeds up or slows down while the bench runs weighs
 * on a command and its baseline alike. hyperfine runs each command's runs in one block
 * (sharkdp/hyperfine#21), minutes from its baseline's on this machine: the same build's
 * `results --offline` against online measured 1.61x and 1.75x in two runs a few minutes apart
 * (docs/performance.md). The time a shell takes to start (`sh -c :`, timed in the same rounds)
 * is taken off every command. Returns each name's times in seconds, round by round.
 */
export function interleaved(cases, { runs, warmup = 2, env = usersEnv() }) {
  const commands = [...Object.values(cases), ':'];
  const times = commands.map(() => []);
  for (let round = 0; round < warmup + runs; round++) {
    for (let step = 0; step < commands.length; step++) {
      const index = (round + step) % commands.length;
      const start = process.hrtime.bigint();
      const result = spawnSync('sh', ['-c', commands[index]], { env, stdio: 'ignore' });
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (result.status !== 0) throw new Error(`bench: \`${commands[index]}\` exited with ${result.status ?? result.signal}`);
      if (round >= warmup) times[index].push(seconds);
    }
  }
  const shell = middle(times.pop().sort((a, b) => a - b));
  return Object.fromEntries(Object.keys(cases).map((name, index) => [name, times[index].map((seconds) => seconds - shell)]));
}

/** The least, the median and the most of some times. */
export function spread(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { min: sorted[0], median: middle(sorted), max: sorted.at(-1) };
}
