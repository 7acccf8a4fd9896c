#!/usr/bin/env node
// Compares two commands, usually one command run by two builds of mkt, interleaved
// (interleaved.mjs): each round runs both, and the figure is the median of the rounds' ratios
// (after ÷ before, below 1 is faster), with its quartiles. On a machine whose speed drifts, a
// ratio within one round is steadier than a ratio of two medians.
//
//   node test/bench/compare-builds.mjs [--runs N] 'COMMAND BEFORE' 'COMMAND AFTER'
//
// e.g. the build before a change, in a worktree of its own:
//   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && npm ci && npm run build)
//   node test/bench/compare-builds.mjs '/tmp/before/bin/mkt.js results --offline -f json > /dev/null' 'bin/mkt.js results --offline -f json > /dev/null'
import { parseArgs } from 'node:util';
import { interleaved, middle, spread } from './interleaved.mjs';

const { values: options, positionals } = parseArgs({ options: { runs: { type: 'string', default: '20' } }, allowPositionals: true });
if (positionals.length !== 2) {
  console.error("usage: node test/bench/compare-builds.mjs [--runs N] 'COMMAND BEFORE' 'COMMAND AFTER'");
  process.exit(2);
}
const { before, after } = interleaved({ before: positionals[0], after: positionals[1] }, { runs: Number(options.runs) });
const ratios = after.map((seconds, round) => seconds / before[round]).sort((a, b) => a - b);
const quartile = (fraction) => ratios[Math.round((ratios.length - 1) * fraction)];
const ms = (times) => `${(spread(times).median * 1000).toFixed(0)} ms`;
console.log(`before ${ms(before)}, after ${ms(after)}: ${middle(ratios).toFixed(2)} [${quartile(0.25).toFixed(2)}, ${quartile(0.75).toFixed(2)}], ${ratios.length} rounds`);
