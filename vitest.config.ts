import { defineConfig } from 'vitest/config';

/** Files that replace a module with vi.mock: only a module graph of their own loads their stand-in. */
const MOCKING_MODULES = ['test/unit/http/rate-gate.test.ts'];

export default defineConfig({
  test: {
    // test/stress/ is `npm run test:stress` (vitest.stress.config.ts), which CI runs after `npm test`.
    exclude: ['test/bench/**', 'test/stress/**', 'node_modules/**'],
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
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ['test/bench/**', 'test/stress/**', 'node_modules/**', ...MOCKING_MODULES],
          // A worker runs its files in one module graph: Node, vitest and src/ load once per
          // worker rather than once per file. No test changes process-wide state it does not restore.
          isolate: false,
          setupFiles: ['test/helpers/setup.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING_MODULES } },
    ],
  },
});
