import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../src/io/progress.js';
import { MemoryStream } from './helpers.js';

/** What MemoryStream.clearLine writes: the escape that erases the spinner's line. */
const CLEAR_LINE = '\u001b[2K';

describe('createProgress', () => {
  it('prints nothing at all when disabled, not even the summary', async () => {
    const stderr = new MemoryStream(false);
    const progress = await createProgress({ stream: stderr, enabled: false });
    progress.update({ page: 1, totalPages: 2, records: 100 });
    progress.finish('200 records from 2 pages in 0.1 s');
    progress.clear();
    expect(stderr.chunks).toHaveLength(0);
  });

  it('shows page x/y, records and rate, then leaves only the summary line', async () => {
    const stderr = new MemoryStream(true, 80);
    let now = 1_000;
    const progress = await createProgress({ stream: stderr, enabled: true, color: false, now: () => now });
    now += 2_000;
    progress.update({ page: 3, totalPages: 120, records: 3_000 });
    expect(stderr.text()).toContain('page 3/120 · 3,000 records · 1,500 records/s');
    progress.finish('12,000 records from 120 pages in 8.0 s to out.parquet');
    expect(stderr.text().endsWith('12,000 records from 120 pages in 8.0 s to out.parquet\n')).toBe(true);
  });

  it('clears the spinner and prints no summary when the export fails', async () => {
    const stderr = new MemoryStream(true, 80);
    const progress = await createProgress({ stream: stderr, enabled: true, color: false });
    progress.update({ page: 1, records: 100 });
    const beforeFail = stderr.text().length;
    progress.clear();
    expect(stderr.text()).toContain('page 1 · 100 records');
    expect(stderr.text().slice(beforeFail)).toContain(CLEAR_LINE);
    expect(stderr.text()).not.toMatch(/records from/);
  });
});
