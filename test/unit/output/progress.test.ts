import { describe, expect, it } from 'vitest';
import { createProgress, describeWait } from '../../../src/io/progress.js';
import type { Wait } from '../../../src/core/waits.js';
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

  it('shows a wait over a second, counted down, beside the pages, and drops it when it ends', async () => {
    const stderr = new MemoryStream(true, 80);
    let now = 1_000;
    const progress = await createProgress({ stream: stderr, enabled: true, color: false, now: () => now });
    now += 1_000;
    progress.update({ page: 3, totalPages: 120, records: 3_000 });
    const wait: Wait = { cause: 'rate-limit', ms: 12_000, until: now + 12_000 };
    progress.began(wait);
    expect(stderr.text()).toContain('page 3/120 · 3,000 records · 3,000 records/s · waiting for the rate limit · 12 s');
    progress.ended(wait);
    progress.update({ page: 4, totalPages: 120, records: 4_000 });
    expect(stderr.text().split('waiting').at(-1)).toContain('page 4/120 · 4,000 records');
    expect(stderr.text().split('page 4/120').at(-1)).not.toContain('waiting');
  });

  it('shows nothing of a wait of a second or less', async () => {
    const stderr = new MemoryStream(true, 80);
    const progress = await createProgress({ stream: stderr, enabled: true, color: false, now: () => 0 });
    const wait: Wait = { cause: 'rate-limit', ms: 1_000, until: 1_000 };
    progress.began(wait);
    progress.ended(wait);
    expect(stderr.chunks).toHaveLength(0);
  });

  it('shows a wait alone when the command has said nothing, and clears its line when it ends', async () => {
    const stderr = new MemoryStream(true, 80);
    const progress = await createProgress({ stream: stderr, enabled: true, color: false, now: () => 0 });
    const wait: Wait = { cause: 'unavailable', ms: 5_000, until: 5_000 };
    progress.began(wait);
    expect(stderr.text()).toContain('waiting for the service to come back · 5 s');
    const before = stderr.text().length;
    progress.ended(wait);
    expect(stderr.text().slice(before)).toContain(CLEAR_LINE);
    expect(stderr.text().slice(before)).not.toContain('waiting');
  });

  it('prints no wait when disabled', async () => {
    const stderr = new MemoryStream(false);
    const progress = await createProgress({ stream: stderr, enabled: false });
    progress.began({ cause: 'rate-limit', ms: 12_000, until: Date.now() + 12_000 });
    progress.step('venue 1 of 2 · NYSE');
    expect(stderr.chunks).toHaveLength(0);
  });
});

describe('describeWait', () => {
  const at = (wait: Omit<Wait, 'ms' | 'until'>, seconds: number) => describeWait({ ...wait, ms: seconds * 1000, until: seconds * 1000 }, 0);

  it('says what the client waits for and the seconds left, rounded up', () => {
    expect(at({ cause: 'rate-limit' }, 12)).toBe('waiting for the rate limit · 12 s');
    expect(describeWait({ cause: 'rate-limit', ms: 12_000, until: 12_000 }, 10_100)).toBe('waiting for the rate limit · 2 s');
    expect(at({ cause: 'unavailable' }, 3)).toBe('waiting for the service to come back · 3 s');
    expect(at({ cause: 'retry', attempt: { number: 4, of: 5 } }, 2)).toBe('waiting to retry (try 4 of 5) · 2 s');
    expect(at({ cause: 'max-rps' }, 100)).toBe('waiting for --max-rps · 100 s');
    expect(at({ cause: 'rate-limit' }, 7200)).toBe('waiting for the rate limit · 7,200 s');
  });

  it('says when the server asked for longer than mkt waits', () => {
    expect(at({ cause: 'rate-limit', capped: true }, 30)).toBe('waiting for the rate limit · 30 s (capped: the server asked for more)');
  });
});
