#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json), as the program's bundle is (bin/bundle.js): --version and --help
// are answered without loading it, so the cheapest calls cost about what `node -e 0` costs.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = require('node:fs');
  const { join } = require('node:path');
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else {
  // A reader that goes away (`mkt --help | head`) is not an error; data exports handle it themselves.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') return;
    process.stderr.write(`mkt: cannot write to standard output: ${error.message}\n`);
    process.exit(1);
  });
  if (!require('./help.js').answerHelp(args, process.stdout)) {
    const { run, processDeps } = require('./bundle.js').loadBundle().exports;
    run(args, processDeps()).then((code) => {
      process.exitCode = code;
    });
  }
}
