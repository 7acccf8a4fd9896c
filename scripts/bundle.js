// Part of `npm run build`, after tsc has checked and compiled src/ into dist/: dist/bundle/mkt.cjs,
// what bin/mkt.js runs, is src/cli.ts with every module it imports, mkt's own and its
// dependencies', in one CommonJS file. Node resolves, reads and links no module but this one, and
// sets up no ES module loader; a module imported with import() is still run only when it is first
// imported. dist/ keeps tsc's modules for scripts/generate-docs.js.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/bundle/mkt.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Loaded by name, and only by the commands that use them: DuckDB (optional, the mirror's
  // commands) has a native library that cannot be bundled, and its package finds the one built for
  // this platform; the MCP SDK and zod (`mkt mcp`), bundled, would be read by every command.
  external: ['@duckdb/*', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'zod', 'zod/*'],
  // Modules that find files beside them (the completion scripts, package.json) do so from the
  // bundle's place, two levels below the package as src/*/ and dist/*/ are.
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
