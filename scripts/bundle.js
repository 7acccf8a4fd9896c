// Part of `npm run build`, after tsc has checked and compiled src/ into dist/. Two bundles:
//
// - dist/bundle/mkt.cjs, what bin/mkt.js runs: src/cli.ts with every module it imports, mkt's
//   own and its dependencies', in one CommonJS file. Node resolves, reads and links no module but
//   this one, and sets up no ES module loader; a module imported with import() is still run only
//   when it is first imported. `mkt fees NYSE` took 197 ms as 66 ES modules and 127 bundled
//   (docs/performance.md, "Start-up"). dist/ keeps tsc's modules for scripts/generate-docs.js and
//   the tests.
// - dist/vendor/duckdb-node-api.cjs: @duckdb/node-api's JavaScript, about 60 CommonJS files,
//   bundled from its entry point into one, which a sync's appends and the answers of `mkt sql`
//   load (src/mirror/duckdb.ts). Node resolved, read and compiled the files one by one in 100 ms;
//   the bundle loads in 45-50 (docs/performance.md). The native library, @duckdb/node-bindings,
//   stays a package of its own. Without @duckdb/node-api (installed without optional
//   dependencies) there is nothing to bundle, and `mkt sync` and `mkt sql` say DuckDB is not
//   installed; so do `results --offline` and `mkt diff` when the native library is missing too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/bundle/mkt.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Optional, and loaded only by the mirror's commands: its native library cannot be bundled, and
  // its JavaScript API is bundled apart, below.
  external: ['@duckdb/*'],
  // Modules that find files beside them (the completion scripts, package.json, the DuckDB bundle)
  // do so from the bundle's place, two levels below the package as src/*/ and dist/*/ are.
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});

const DUCKDB_API_BUNDLE = 'dist/vendor/duckdb-node-api.cjs';

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
  outfile: DUCKDB_API_BUNDLE,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['@duckdb/node-bindings'],
  // Less to parse: 45-50 ms to load instead of 60. Names are kept, for --verbose's stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  banner: { js: `/*!\n * @duckdb/node-api ${version}, bundled by scripts/bundle.js.\n *\n${license.replace(/^/gm, ' * ').replace(/ +$/gm, '')}\n */` },
  logLevel: 'warning',
});
