import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Format } from '../output/exporter.js';

/*
 * How a long export keeps its memory flat: the peak for 200,000 records within 1.5x of that for
 * 20,000 (docs/performance.md, "Memory of a walk"). A walk allocates fast while little of what it
 * allocates lives, and V8 sizes its heap by the former.
 */

/**
 * The young generation (both semi-spaces, in bytes) at which a walk to each format stops its
 * growth. V8 doubles it whenever enough has survived its scavenges since the last doubling, up to
 * a limit of its own: 32 MB on Node 20 and 22, 128 MB on Node 24. A 200k export reached that limit
 * where a 20k export did not, and that was most of the difference between their peaks.
 * - Formats that write each page as it comes hold a page or two. They stop at 8 MB, where a 20k
 *   export ends. Held from the start, it cost CSV 6% (more scavenges, more promoted early); at
 *   8 MB, nothing measurable.
 * - Parquet holds a row group, and more of its garbage lives a little while: held at 8 MB it cost
 *   3%. At 32 MB, the limit of Node 20 and 22, it costs nothing there and keeps Node 24 from
 *   going on to 128 MB (a 200k export peaked at 250 MB, 1.5x the 20k one). Between row groups
 *   the Parquet exporter collects the old generation too: collectGarbage.
 */
const YOUNG_GENERATION_BYTES = { text: 8 * 2 ** 20, parquet: 32 * 2 ** 20 };

/** What a walk writing `format` calls after each page. */
export function walkHeapControl(format: Format): () => void {
  const limit = format === 'parquet' ? YOUNG_GENERATION_BYTES.parquet : YOUNG_GENERATION_BYTES.text;
  let held = false;
  return () => {
    if (held) return;
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young !== undefined && young.space_size < limit) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    held = true;
  };
}

let gc: (() => void) | undefined;

/**
 * A full garbage collection, now. The Parquet exporter calls it between row groups, when the last
 * group's values and its encoding are all garbage. Left to V8, a 200k export peaked at 1.4-1.9x a
 * 20k one; a heap that grows by 20% at most (--heap-growing-percent=20) held it at 1.1x for 20-45
 * ms of a 300-page walk, the price of collecting often; this holds it the same for one collection
 * per 20,000 rows.
 *
 * V8 gives JavaScript its `gc` function only with --expose-gc, and only in contexts made after the
 * flag is set: hence the flag now and a new context.
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
