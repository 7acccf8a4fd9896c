import { defineConfig } from 'vitest/config';

/**
 * `npm run test:slow`, which CI runs after `npm test` (.ci/run): what is too slow for every
 * `npm test`. Loops that repeat a test many times to show a rare failure is gone; sizes that show
 * work growing with the input rather than its square; and the process itself, as a user gets it:
 * installed by npm, the modules a fresh process loads, Ctrl-C and a second mkt on one mirror.
 * Most spawn bin/mkt.js, which the script builds first when it is stale.
 */
export default defineConfig({
  test: {
    include: ['test/slow/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/helpers/setup.ts'],
  },
});
