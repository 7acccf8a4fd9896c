#!/usr/bin/env -S node --max-semi-space-size=8
'use strict';
// The entry point. `--version` is answered from package.json alone; everything else runs the
// program, built into dist/bundle/mkt.cjs (scripts/bundle.js), and exits with the code it returns.
// Both are CommonJS (bin/package.json), so that Node sets up no ES module loader.
//
// The one V8 setting, on the line above, at start-up: V8 grows the young generation whenever
// enough has survived its collections since the last growth, and a long walk always gets there,
// up to 32 MB on Node 20 and 22 and 128 MB on Node 24, which took a 1,000,000-record export to
// 364-400 MB on Node 24. Held at 8 MB per semi-space it peaks at 213-242 MB (docs/performance.md,
// "Memory"). It costs each command 14-20 ms on Node 20 and 22, whose V8 then rejects the code
// cache of Node's own modules, and nothing on Node 24 (the same section). `node bin/mkt.js` runs
// without it.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = require('node:fs');
  const { join } = require('node:path');
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else {
  // Node 22.1 and later keep what they compile between runs (docs/performance.md); Node 20 has no such cache.
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
