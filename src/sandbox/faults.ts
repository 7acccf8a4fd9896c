import { hash32, hashString } from './random.js';

export type FaultKind = 'html-503' | 'truncated-200' | 'retry-429';
const FAULT_KINDS: readonly FaultKind[] = ['html-503', 'truncated-200', 'retry-429'];

/** Share of distinct requests, in percent, whose first try fails. */
const FAULT_PERCENT = 25;
/** Bounds memory when a client never retries; a forgotten request simply faults again. */
const MAX_PENDING = 100_000;

/**
 * Decides which requests fail. The choice is a hash of (seed, method, path and query, key), so
 * the same request always faults the same way; the next try of a request that just faulted
 * succeeds, and the one after that is a first try again.
 */
export class FaultInjector {
  private readonly pending = new Set<string>();

  constructor(private readonly seed: number) {}

  /** The fault to answer with, or undefined to answer normally. */
  next(method: string, pathAndQuery: string, key: string): FaultKind | undefined {
    const request = `${method} ${pathAndQuery} ${key}`;
    if (this.pending.delete(request)) return undefined;
    const hash = hash32(this.seed, hashString(request));
    if (hash % 100 >= FAULT_PERCENT) return undefined;
    if (this.pending.size >= MAX_PENDING) this.pending.clear();
    this.pending.add(request);
    return FAULT_KINDS[hash32(hash) % FAULT_KINDS.length];
  }
}
