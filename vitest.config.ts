import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A worker runs its files in one module graph: Node, vitest and src/ load once per worker
    // rather than once per file. No test changes process-wide state it does not restore.
    isolate: false,
    setupFiles: ['test/helpers/setup.ts'],
    // Most test files wait on servers, retries and processes rather than compute: four at a
    // time keep two cores busy.
    maxWorkers: 4,
  },
});
