import { createRequire } from 'node:module';
import type * as DuckDB from '@duckdb/node-api';
import type * as DuckDBBindings from '@duckdb/node-bindings';
import { MktError } from '../errors.js';

export type DuckDBModule = typeof DuckDB;

/**
 * DuckDB's optional packages, loaded only by the mirror's commands: with require rather than
 * import(), since from ESM Node first scans a CommonJS file for its exports (docs/performance.md).
 */
const require = createRequire(import.meta.url);

let loaded: DuckDBModule | undefined;

/**
 * `@duckdb/node-api`, DuckDB's JavaScript API, as the build bundled it (scripts/bundle-duckdb.js).
 * The path holds from dist/mirror and from src/mirror alike: tests run the sources, after a build.
 */
export function loadDuckDB(): DuckDBModule {
  loaded ??= load<DuckDBModule>('../../dist/vendor/duckdb-node-api.cjs');
  return loaded;
}

/** A DuckDB file, open, and the API it was opened with. */
export interface OpenedDuckDB {
  duckdb: DuckDBModule;
  instance: DuckDB.DuckDBInstance;
}

/** Opens a DuckDB file. */
export type DuckDBOpener = (path: string, options: { readOnly: boolean }) => Promise<OpenedDuckDB>;

/**
 * DuckDB's opener, once its native library (`@duckdb/node-bindings`, which @duckdb/node-api
 * wraps) has loaded: throws when DuckDB is not installed. The library starts opening a file on
 * DuckDB's own threads, and @duckdb/node-api's JavaScript loads meanwhile: one after the other,
 * the two took 35-40 and 48-52 ms (docs/performance.md). The opener rejects with DuckDB's error when
 * the file cannot be opened.
 */
export function duckdbOpener(): DuckDBOpener {
  const bindings = load<typeof DuckDBBindings>('@duckdb/node-bindings');
  return async (path, options) => {
    const config = bindings.create_config();
    if (options.readOnly) bindings.set_config(config, 'access_mode', 'READ_ONLY');
    const opening = bindings.open(path, config);
    let duckdb: DuckDBModule;
    try {
      duckdb = loadDuckDB();
    } catch (error) {
      opening.then((database) => bindings.close_sync(database)).catch(() => {});
      throw error;
    }
    return { duckdb, instance: new duckdb.DuckDBInstance(await opening) };
  };
}

/** One of DuckDB's packages; either missing is DuckDB not installed. */
function load<T>(name: string): T {
  try {
    return require(name) as T;
  } catch (error) {
    throw new MktError(`the mirror needs DuckDB (@duckdb/node-api), which is not installed for ${process.platform}-${process.arch}`, {
      hint: 'Reinstall mkt with its optional dependencies (npm install --include=optional); every other command works without it.',
      cause: error,
    });
  }
}
