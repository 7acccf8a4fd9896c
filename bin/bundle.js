'use strict';
// Loads dist/bundle/mkt.cjs, the whole program in one CommonJS file, with V8's code cache for
// it: compiling 1.5 MB of JavaScript was a quarter of every command's start-up, and Node 20
// keeps no compiled code between runs (Node 22 does, with module.enableCompileCache). Node 20
// cannot cache ES modules, hence CommonJS (docs/performance.md).
//
// `npm run bundle` ends with `node bin/bundle.js --write-cache`, which puts an id on the first
// line of the bundle and writes the cache for this Node, led by the same id. V8 checks a cache
// against its version, its flags and the source's length, not the source itself: the id is what
// keeps a cache from one build off another. Any mismatch, a missing cache or a cache V8 rejects
// costs only the compile.
const { readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const BUNDLE = join(__dirname, '..', 'dist', 'bundle', 'mkt.cjs');
const ID_PREFIX = '// mkt build ';

/** Where the cache of `bundle` for this Node lives. */
const cachePath = (bundle) => `${bundle}.${process.version}-${process.arch}.cache`;

/** `source` as a CommonJS module's function, compiled, with `cachedData` if there is one. */
function compile(bundle, source, cachedData) {
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  return new Script(wrapped, { filename: bundle, cachedData });
}

/** The cache written for `source` (the bundle's text, id first), if there is one for this Node. */
function cacheFor(bundle, source) {
  const id = source.slice(0, source.indexOf('\n') + 1);
  if (!id.startsWith(ID_PREFIX)) return undefined;
  try {
    const cache = readFileSync(cachePath(bundle));
    return cache.toString('latin1', 0, id.length) === id ? cache.subarray(id.length) : undefined;
  } catch {
    return undefined;
  }
}

/** The bundle's exports; `cached` says whether V8 took the cache. */
function loadBundle(bundle = BUNDLE) {
  // Read as Latin-1, a plain copy: esbuild escapes every other character in code, so only a
  // comment may read differently than in UTF-8. writeCodeCache reads it the same way.
  const source = readFileSync(bundle, 'latin1');
  const cachedData = cacheFor(bundle, source);
  if (cachedData === undefined) {
    require('node:module').enableCompileCache?.(); // Node 22+ keeps its own cache
    return { exports: require(bundle), cached: false };
  }
  const script = compile(bundle, source, cachedData);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { exports: module.exports, cached: !script.cachedDataRejected };
}

/** Puts a fresh id on the bundle's first line and writes its cache for this Node. */
function writeCodeCache(bundle = BUNDLE) {
  const { createHash } = require('node:crypto'); // here, not above: every other run would load it
  const text = readFileSync(bundle, 'latin1');
  const built = text.startsWith(ID_PREFIX) ? text.slice(text.indexOf('\n') + 1) : text;
  // esbuild keeps import() only of what it leaves out (Node's built-ins), and a script compiled
  // here has no module loader to answer one: import those statically.
  const dynamicImport = /\bimport\("[^"]*"\)/.exec(built);
  if (dynamicImport) throw new Error(`${bundle}: ${dynamicImport[0]} cannot load in the bundle; import it statically`);
  const source = `${ID_PREFIX}${createHash('sha256').update(built).digest('hex').slice(0, 16)}\n${built}`;
  writeFileSync(bundle, source, 'latin1');
  const id = source.slice(0, source.indexOf('\n') + 1);
  writeFileSync(cachePath(bundle), Buffer.concat([Buffer.from(id, 'latin1'), compile(bundle, source).createCachedData()]));
}

module.exports = { loadBundle, writeCodeCache, cachePath };

if (require.main === module && process.argv[2] === '--write-cache') writeCodeCache(process.argv[3]);
