import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const created: string[] = [];
/** The directory unmadePath names paths in, made at its first call in a test file. */
let unmadeRoot: string | undefined;
let unmadeCount = 0;

/** Removes the directories tempDir made; test/helpers/setup.ts calls it after each test file. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
  unmadeRoot = undefined;
}

/** A fresh directory in the system's temporary directory (`prefix…`), removed when the test file is done. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/**
 * A fresh path (`prefix…`) where nothing is yet, removed with the test file's directories: for a
 * directory mkt makes when it first writes there, as on a user's first run.
 */
export function unmadePath(prefix: string): string {
  unmadeRoot ??= tempDir('mkt-unmade-');
  return join(unmadeRoot, `${prefix}${++unmadeCount}`);
}
