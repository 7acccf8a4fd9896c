import { readFileSync } from 'node:fs';
import type { ConfigFiles } from '../config/paths.js';

function profilesIn(file: string): string[] {
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const profiles = (data as { profiles?: unknown } | null)?.profiles;
    return typeof profiles === 'object' && profiles !== null && !Array.isArray(profiles) ? Object.keys(profiles) : [];
  } catch {
    return []; // a missing or broken file offers nothing; `mkt config` reports it when used
  }
}

/** The names of the profiles stored in either file, sorted, for completing `--profile`. */
export function storedProfileNames(files: ConfigFiles): string[] {
  return [...new Set([...profilesIn(files.settings), ...profilesIn(files.credentials)])].sort();
}
