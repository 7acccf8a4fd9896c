#!/usr/bin/env node
// Answer --version before loading anything else: it is the cheapest call a user can make.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  // A reader that goes away (`mkt --help | head`) is not an error; data exports handle it themselves.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') return;
    process.stderr.write(`mkt: cannot write to standard output: ${error.message}\n`);
    process.exit(1);
  });
  const { run } = await import('../dist/bundle/main.js');
  const { processDeps } = await import('../dist/bundle/deps.js');
  process.exitCode = await run(args, processDeps());
}
