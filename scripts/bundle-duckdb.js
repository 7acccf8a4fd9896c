// Part of `npm run build`: @duckdb/node-api's JavaScript, about 60 CommonJS files, bundled from
// its entry point into one, dist/vendor/duckdb-node-api.cjs, which a sync's appends and the
// answers of `mkt sql` load (src/mirror/duckdb.ts). Node resolved, read and compiled the files
// one by one in 100 ms; the bundle loads in 45-50 (docs/performance.md). The native library,
// @duckdb/node-bindings, stays a package of its own. Without @duckdb/node-api (installed without
// optional dependencies) there is nothing to bundle, and `mkt sync` and `mkt sql` say DuckDB is
// not installed; so do `results --offline` and `mkt diff` when the native library is missing too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const OUTFILE = 'dist/vendor/duckdb-node-api.cjs';
const require = createRequire(import.meta.url);

let entry;
try {
  entry = require.resolve('@duckdb/node-api');
} catch {
  console.warn('@duckdb/node-api is not installed: mkt sync and mkt sql will say so');
  process.exit(0);
}
const packageDirectory = dirname(require.resolve('@duckdb/node-api/package.json'));
const { version } = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'));
const license = readFileSync(join(packageDirectory, 'LICENSE'), 'utf8').trim();

await build({
  entryPoints: [entry],
  outfile: OUTFILE,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['@duckdb/node-bindings'],
  // Less to parse: 45-50 ms to load instead of 60. Names are kept, for --verbose's stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  banner: { js: `/*!\n * @duckdb/node-api ${version}, bundled by scripts/bundle-duckdb.js.\n *\n${license.replace(/^/gm, ' * ').replace(/ +$/gm, '')}\n */` },
  logLevel: 'warning',
});
