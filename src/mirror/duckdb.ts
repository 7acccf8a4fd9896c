import { createRequire } from 'node:module';
import type * as DuckDB from '@duckdb/node-api';
import { MktError } from '../errors.js';

export type DuckDBModule = typeof DuckDB;

let loaded: DuckDBModule | undefined;

/**
 * `@duckdb/node-api`, an optional dependency that only the mirror's commands load. Loaded with
 * require rather than import(): from ESM, Node first scans each of its ~180 CommonJS files for
 * their exports, and that doubled the load (190 ms against 100 ms, docs/performance.md).
 */
export function loadDuckDB(): DuckDBModule {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('@duckdb/node-api') as DuckDBModule;
  } catch (error) {
    throw new MktError(`the mirror needs DuckDB (@duckdb/node-api), which is not installed for ${process.platform}-${process.arch}`, {
      hint: 'Reinstall mkt with its optional dependencies (npm install --include=optional); every other command works without it.',
      cause: error,
    });
  }
  return loaded;
}
