import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test files wait on servers, retries and processes rather than compute: four at a
    // time keep two cores busy.
    maxWorkers: 4,
  },
});
