import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMkt } from '../helpers/run-mkt.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What no help needs: the HTTP client, the spinner, the exporters and the sandbox; but for four
 * modules without imports that the commands share: the sandbox's limits, the exporters' types,
 * the sink that the completion scripts' hidden commands write with, and grouped digits.
 */
const HEAVY = ['dist/http/', 'dist/api/client.js', 'dist/output/', 'dist/sandbox/', 'node_modules/ora/', 'node_modules/hyparquet-writer/'];
const SHARED = ['dist/sandbox/limits.js', 'dist/output/exporter.js', 'dist/output/sink.js', 'dist/output/digits.js'];

/** The files of the checkout that `mkt args…` loaded, read from the coverage Node writes (NODE_V8_COVERAGE). */
async function filesLoaded(args: readonly string[]): Promise<string[]> {
  const dir = tempDir('mkt-coverage-');
  const run = await runMkt(args, { env: { NODE_V8_COVERAGE: dir } });
  expect(run.code).toBe(0);
  const files = new Set<string>();
  for (const file of readdirSync(dir)) {
    for (const script of (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { result: { url: string }[] }).result) {
      if (script.url.startsWith('file:')) files.add(relative(ROOT, fileURLToPath(script.url)));
    }
  }
  return [...files];
}

const heavyIn = (files: string[]) => files.filter((file) => HEAVY.some((prefix) => file.startsWith(prefix)) && !SHARED.includes(file));

describe('start-up loads only what the command needs', () => {
  it.each(['--version', '-V'])('mkt %s is answered from bin/mkt.js alone', async (flag) => {
    expect(await filesLoaded([flag])).toEqual(['bin/mkt.js']);
  });

  it.each(['--help', 'help results', 'results --help', 'auth login -h'])('mkt %s loads commander and the program, and nothing heavy', async (line) => {
    const files = await filesLoaded(line.split(' '));
    expect(files).toEqual(expect.arrayContaining(['bin/mkt.js', 'dist/program.js', 'node_modules/commander/lib/command.js']));
    expect(heavyIn(files)).toEqual([]);
  });

  it.each(['__profiles', '__exchanges'])('mkt %s, run at every TAB, loads nothing heavy', async (command) => {
    const files = await filesLoaded([command]);
    expect(files).toContain('dist/commands/completion.js');
    expect(heavyIn(files)).toEqual([]);
  });

  it('a data command does load the HTTP client and the sandbox, so the check above can fail', async () => {
    const files = await filesLoaded(['--sandbox', 'fees', 'NYSE', '-f', 'json']);
    expect(heavyIn(files)).toEqual(expect.arrayContaining(['dist/http/transport.js', 'dist/sandbox/server.js']));
  });

  // On Node 22 and later, importing node:http as an ES module loads Node's bundled undici, for
  // 40-58 ms (src/http/node-http.ts). Node 20 has no such getter, so there this cannot fail.
  it('a data command leaves Node\'s bundled undici unloaded', async () => {
    const dir = tempDir('mkt-modules-');
    const report = join(dir, 'modules.json');
    const preload = join(dir, 'report.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));`);
    const run = await runMkt(['--sandbox', 'fees', 'NYSE', '-f', 'json'], { env: { NODE_OPTIONS: `--require ${preload}` } });
    expect(run.code).toBe(0);
    const modules = JSON.parse(readFileSync(report, 'utf8')) as string[];
    expect(modules).toContain('NativeModule http');
    expect(modules.filter((name) => name.includes('undici'))).toEqual([]);
  });
});
