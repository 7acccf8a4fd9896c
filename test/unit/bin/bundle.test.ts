import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';

interface BundleLoader {
  loadBundle(bundle?: string): { exports: { answer?: number }; cached: boolean };
  writeCodeCache(bundle?: string): void;
  cachePath(bundle: string): string;
}
const loader = createRequire(import.meta.url)('../../../bin/bundle.js') as BundleLoader;
const ROOT = join(import.meta.dirname, '../../..');

/** A bundle of its own in a new directory, as esbuild would leave it: no id, no cache. */
function bundleAnswering(answer: number): string {
  const bundle = join(tempDir('mkt-bundle-'), 'mkt.cjs');
  writeFileSync(bundle, `'use strict';\nmodule.exports = { answer: ${answer} };\n`);
  return bundle;
}

describe('bin/bundle.js', () => {
  it('loads a bundle through the cache it wrote, the id on its first line', () => {
    const bundle = bundleAnswering(1);
    loader.writeCodeCache(bundle);
    expect(readFileSync(bundle, 'latin1')).toMatch(/^\/\/ mkt build [0-9a-f]{16}\n'use strict';/);
    expect(loader.loadBundle(bundle)).toEqual({ exports: { answer: 1 }, cached: true });
  });

  it('gives each build its own id, and writing the cache twice keeps one id line', () => {
    const [first, second] = [bundleAnswering(1), bundleAnswering(2)];
    loader.writeCodeCache(first);
    loader.writeCodeCache(second);
    const idOf = (bundle: string) => readFileSync(bundle, 'latin1').split('\n')[0];
    expect(idOf(first)).not.toBe(idOf(second));
    const before = readFileSync(first, 'latin1');
    loader.writeCodeCache(first);
    expect(readFileSync(first, 'latin1')).toBe(before);
  });

  it('never takes another build\'s cache: the source is compiled instead', () => {
    const [old, rebuilt] = [bundleAnswering(11), bundleAnswering(22)]; // same length: V8 alone would take the cache
    loader.writeCodeCache(old);
    loader.writeCodeCache(rebuilt);
    copyFileSync(loader.cachePath(old), loader.cachePath(rebuilt));
    expect(loader.loadBundle(rebuilt)).toEqual({ exports: { answer: 22 }, cached: false });
  });

  it('loads a bundle without an id or a cache, as a build without the cache step leaves it', () => {
    expect(loader.loadBundle(bundleAnswering(3))).toEqual({ exports: { answer: 3 }, cached: false });
  });

  it('refuses a bundle that imports a module at run time, which a compiled script cannot load', () => {
    const bundle = bundleAnswering(4);
    writeFileSync(bundle, `${readFileSync(bundle, 'latin1')}void import("node:os");\n`);
    expect(() => loader.writeCodeCache(bundle)).toThrow('import("node:os") cannot load in the bundle; import it statically');
  });

  it('npm run build leaves a cache of the real bundle that this Node takes', () => {
    const script = "process.stdout.write(String(require('./bin/bundle.js').loadBundle().cached))";
    expect(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })).toBe('true');
  });
});
