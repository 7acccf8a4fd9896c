#!/usr/bin/env node
'use strict';
// The entry point. `--version` is answered from package.json alone; everything else runs the
// program, built into dist/bundle/mkt.cjs (scripts/bundle.js), and exits with the code it returns.
// Both are CommonJS (bin/package.json), so that Node sets up no ES module loader.
//
// No option follows `node` on the line above: BusyBox's `env`, as on Alpine, has no `-S` to split
// one off, and memory stays flat by how exports stream, not by V8 settings (docs/performance.md).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = require('node:fs');
  const { join } = require('node:path');
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else {
  // Node 22.1 and later keep what they compile between runs; Node 20 has no such cache.
  require('node:module').enableCompileCache?.();
  const { run, processDeps, cannotWrite } = require('../dist/bundle/mkt.cjs');
  // A reader that goes away (`mkt --help | head`) is not an error. A data export listens to
  // stdout itself, and says what went wrong when it stops; anything else ends here.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE' || process.stdout.listenerCount('error') > 1) return;
    process.stderr.write(`mkt: ${cannotWrite('to standard output', error).message}\n`);
    process.exit(1);
  });
  run(args, processDeps()).then((code) => {
    process.exitCode = code;
  });
}
