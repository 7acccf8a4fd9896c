import { vi } from 'vitest';

/** What `work` gives, and the length of the longest text it had `Intl.Segmenter` segment at once. */
export async function longestSegmented<T>(work: () => T | Promise<T>): Promise<{ result: T; longest: number }> {
  const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
  try {
    const result = await work();
    return { result, longest: Math.max(...segment.mock.calls.map(([text]) => text.length)) };
  } finally {
    segment.mockRestore();
  }
}
