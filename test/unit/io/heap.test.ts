import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/io/heap.js';

const distHeap = fileURLToPath(new URL('../../../dist/io/heap.js', import.meta.url));

/**
 * The largest young generation (MB) of a process that allocates 20,000 pages of records, keeps
 * the last 20 and calls walkHeapControl(format) after each; `none` calls nothing. V8 flags are
 * the process's, hence a process of its own.
 */
function largestYoungGeneration(format: string): number {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const { walkHeapControl } = await import(${JSON.stringify(distHeap)});
    const afterPage = ${JSON.stringify(format)} === 'none' ? () => {} : walkHeapControl(${JSON.stringify(format)});
    const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
    const kept = [];
    let largest = 0;
    for (let page = 0; page < 20000; page++) {
      kept.push(Array.from({ length: 100 }, (_, index) => ({ id: page + ':' + index, text: 'x'.repeat(index) + page })));
      if (kept.length > 20) kept.shift();
      afterPage();
      largest = Math.max(largest, young());
    }
    console.log(largest / 2 ** 20);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('walkHeapControl', () => {
  it('stops the young generation at 8 MB for formats written page by page; Parquet goes on to 32', () => {
    expect(existsSync(distHeap), 'dist/ is missing: run `npm run build`').toBe(true);
    expect(largestYoungGeneration('none')).toBeGreaterThanOrEqual(32);
    expect(largestYoungGeneration('ndjson')).toBeLessThan(16);
    expect(largestYoungGeneration('parquet')).toBeGreaterThanOrEqual(32);
  });
});

describe('collectGarbage', () => {
  it('collects what nothing refers to, now', async () => {
    const collected = (() => new WeakRef({ rows: Array.from({ length: 1000 }, (_, index) => index) }))();
    // A WeakRef's target lives until the end of the job that made it.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(collected.deref()).toBeUndefined();
  });
});
