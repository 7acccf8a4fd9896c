import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { makeDirectory, replaceFile } from '../config/store.js';
import type { FeeScheduleResultsPage } from '../api/types.js';
import type { MirrorIdentity } from './mirror.js';
import { recordText } from './rows.js';

/**
 * What a mirror held after its last sync, kept in the cache directory so that the next sync can
 * tell "nothing new" from one request without loading DuckDB and opening the file, which is most
 * of what such a sync would cost. It is only believed while the mirror file (and its WAL) are
 * exactly as the sync left them: any write, copy or move changes them, and the sync then opens
 * the mirror as usual. The newest records are kept whole, not by id alone: a record the service
 * answers under a known id with other content is then not "nothing new".
 */
export interface SyncState extends MirrorIdentity {
  /** The mirror file and its write-ahead log as the sync left them. */
  files: string;
  totalRecords: number;
  /** The newest 100 records as recordText, newest first: page 0 of a sync's first request. */
  newestRecords: string[];
}

/** `<cache>/mirrors/<hash of the mirror's path>.json`. */
function stateFile(cacheDir: string, mirror: string): string {
  return path.join(cacheDir, 'mirrors', `${pathHash(mirror)}.json`);
}

/**
 * FNV-1a, 64 bits, of the path's UTF-16 code units, as 16 hex digits: a file name, not a secret.
 * Two paths that share one name cannot share a state, which is believed only for the file (device
 * and inode) it was written for. `node:crypto`, for SHA-256, would be loaded for this alone.
 */
function pathHash(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) hash = ((hash ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}

/** The mirror file and its WAL, as identity, size and time of last change. */
export function filesFingerprint(mirror: string): string {
  return [mirror, `${mirror}.wal`]
    .map((file) => {
      try {
        const stats = statSync(file, { bigint: true });
        return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
      } catch {
        return '-';
      }
    })
    .join(' ');
}

/** The state of the mirror's last sync, when the mirror is still as that sync left it. */
export function readSyncState(cacheDir: string, mirror: string): SyncState | undefined {
  try {
    const state = JSON.parse(readFileSync(stateFile(cacheDir, mirror), 'utf8')) as SyncState;
    if (state.files !== filesFingerprint(mirror) || !Array.isArray(state.newestRecords) || !Number.isSafeInteger(state.totalRecords)) return undefined;
    return state;
  } catch {
    return undefined;
  }
}

/** Whether the service's newest page is what the mirror held after its last sync: the same count, and the same newest records, field for field. */
export function holdsNothingNew(state: SyncState, newestPage: FeeScheduleResultsPage): boolean {
  return newestPage.total_records === state.totalRecords
    && newestPage.data.length === state.newestRecords.length
    && newestPage.data.every((record, index) => recordText(record) === state.newestRecords[index]);
}

/** Keeps the state of a sync that has closed its mirror. A cache: failing to write it costs the next sync time, not data. */
export function writeSyncState(cacheDir: string, mirror: string, state: Omit<SyncState, 'files'>): void {
  try {
    const file = stateFile(cacheDir, mirror);
    makeDirectory(path.dirname(file));
    replaceFile(file, `${JSON.stringify({ ...state, files: filesFingerprint(mirror) })}\n`, 0o600);
  } catch {
    // Not kept: the next sync opens the mirror.
  }
}
