#!/usr/bin/env node
// The entry point. `--version` is answered from package.json alone; everything else runs the
// program built into dist/ and exits with the code it returns.
import { readFileSync } from 'node:fs';
import module from 'node:module';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${manifest.version}\n`);
} else {
  // Node 22.1 and later keep what they compile between runs (docs/performance.md); Node 20 has no such cache.
  module.enableCompileCache?.();
  // A reader that goes away (`mkt --help | head`) is not an error; data exports handle it themselves.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') return;
    process.stderr.write(`mkt: cannot write to standard output: ${error.message}\n`);
    process.exit(1);
  });
  const [{ run }, { processDeps }] = await Promise.all([import('../dist/main.js'), import('../dist/deps.js')]);
  process.exitCode = await run(args, processDeps());
}
