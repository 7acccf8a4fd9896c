import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 37, point 9: the tests too slow for `npm test` (test/slow/) still run in CI, and count.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CI_RUN = readFileSync(join(ROOT, '.ci/run'), 'utf8');

/** The last line .ci/run prints, from these vitest JSON reports in its output directory (undefined: none). */
function summaryOf(reports: { 'vitest.json'?: object; 'vitest-slow.json'?: object }, quickStartStatus = 0): string {
  const out = tempDir('mkt-ci-');
  for (const [name, report] of Object.entries(reports)) writeFileSync(join(out, name), JSON.stringify(report));
  const summary = /^summary\(\) \{\n[\s\S]*?\n\}\n/m.exec(CI_RUN)?.[0];
  expect(summary).toBeDefined();
  return execFileSync('bash', ['--norc', '--noprofile', '-c', `out="$1"\n${summary}\nQUICKSTART_STATUS=${quickStartStatus} summary`, 'ci', out], { encoding: 'utf8' });
}

describe('.ci/run', () => {
  it('runs npm run test:slow after npm test', () => {
    const test = CI_RUN.indexOf('\nnpm test ');
    const slow = CI_RUN.indexOf('\nnpm run test:slow ');
    expect(test).toBeGreaterThan(0);
    expect(slow).toBeGreaterThan(test);
  });

  it('counts the slow run into its "N passed, N failed" line, and a slow run with no report as a failure', () => {
    const suite = { numPassedTests: 1700, numFailedTests: 2 };
    expect(summaryOf({ 'vitest.json': suite, 'vitest-slow.json': { numPassedTests: 1, numFailedTests: 1 } })).toBe('1702 passed, 3 failed\n');
    expect(summaryOf({ 'vitest.json': suite })).toBe('1701 passed, 3 failed\n');
  });

  it('counts the quick start as one more check, so that its failure shows in the line as well as in the exit code', () => {
    const both = { 'vitest.json': { numPassedTests: 5, numFailedTests: 0 }, 'vitest-slow.json': { numPassedTests: 1, numFailedTests: 0 } };
    expect(summaryOf(both)).toBe('7 passed, 0 failed\n');
    expect(summaryOf(both, 1)).toBe('6 passed, 1 failed\n');
  });
});
