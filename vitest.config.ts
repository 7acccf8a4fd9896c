import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/slow/ is `npm run test:slow` (vitest.slow.config.ts), which CI runs after `npm test`.
    exclude: ['test/bench/**', 'test/slow/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Each run after the first reads src/ and test/ as transformed before, from
    // node_modules/.experimental-vitest-cache, rather than transforming them again.
    // `npx vitest --clearCache` empties it (docs/performance.md).
    experimental: { fsModuleCache: true },
    // Test files wait on servers, retries and processes as well as compute: three at a time keep
    // two cores busy, and each worker more loads Node, vitest and src/ once more (docs/performance.md).
    maxWorkers: 3,
    // A worker runs its files in one module graph: Node, vitest and src/ load once per worker
    // rather than once per file. No test changes process-wide state it does not restore, and none
    // replaces a module with vi.mock, whose stand-in would reach the files run after it.
    isolate: false,
    setupFiles: ['test/helpers/setup.ts'],
  },
});
