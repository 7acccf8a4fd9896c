import { afterAll, beforeAll } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';

export interface Duck {
  rows(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): void;
}

/** A real reader, for what other tools will see of our files. */
export async function openDuckDB(): Promise<Duck> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  return {
    async rows(sql, params) {
      const reader = await connection.runAndReadAll(sql, params as never);
      return reader.getRowObjectsJS() as Record<string, unknown>[];
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** One in-memory DuckDB for the enclosing test file. Read `.current` inside tests. */
export function useDuckDB(): { current: Duck } {
  const handle = {} as { current: Duck };
  beforeAll(async () => {
    handle.current = await openDuckDB();
  });
  afterAll(() => handle.current?.close());
  return handle;
}
