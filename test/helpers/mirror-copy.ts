import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

/**
 * A copy of a closed mirror, in a fresh directory of its own, for a test that starts from a state
 * one sync made for its whole file. A mirror whose last connection closed cleanly has no log
 * beside it and is one plain file; it keeps the service it was synced from, so the copy is read
 * against that same service.
 */
export function copyMirror(mirror: string, name = 'm.duckdb'): string {
  if (existsSync(`${mirror}.wal`)) throw new Error(`${mirror} has a log beside it: it was not closed, and a copy of the file alone is not its state`);
  const copy = join(tempDir('mkt-mirror-copy-'), name);
  copyFileSync(mirror, copy);
  return copy;
}
