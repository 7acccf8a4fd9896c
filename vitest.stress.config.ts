import { defineConfig } from 'vitest/config';

/**
 * `npm run test:stress`: loops that repeat a test many times to show a rare failure is gone, and
 * sizes that show work growing with the input rather than its square: too long for every `npm test`.
 * CI runs them after `npm test` (.ci/run). Some spawn bin/mkt.js: build first.
 */
export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/helpers/setup.ts'],
  },
});
