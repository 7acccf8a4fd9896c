import { randomUUID } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultsQuery } from '../api/filters.js';
import type { Context } from './context.js';
import { groupDigits } from '../core/digits.js';
import { MktError, UsageError } from '../core/errors.js';
import { PARTITION_KEYS, type PartitionKey } from '../mirror/export-keys.js';
import { duckdbMessage, whatIsAt } from '../mirror/mirror.js';
import { cannotWrite } from '../output/output-path.js';
import type { MirrorOpening } from './mirror-location.js';

/** What `mkt export` was asked for, its flags checked. */
export interface ExportRequest {
  directory: string;
  query: ResultsQuery;
  keys: readonly PartitionKey[];
  overwrite: boolean;
}

/** The file a reader waits for: there, the tree is whole. */
const SUCCESS_FILE = '_SUCCESS';

/**
 * Writes the tree into a hidden directory beside `<dir>` and renames it in once whole, with
 * _SUCCESS: a reader never sees half a tree, and a failure or Ctrl-C leaves none (the hidden
 * one is removed). `--overwrite` renames the earlier tree aside, the new one in, then removes
 * the earlier one.
 */
export async function runExport(context: Context, request: ExportRequest, { path: mirrorPath, opened }: MirrorOpening): Promise<void> {
  const target = checkTarget(path.resolve(request.directory), request.overwrite);
  const [mirror, { checkWithinMirror, mirrorFiltersOf }, { planTree, writeTree }] = await Promise.all([
    opened,
    import('../mirror/mirror-filters.js'),
    import('../mirror/export.js'),
  ]);
  const identity = mirror.syncedIdentity();
  checkWithinMirror(mirrorFiltersOf(request.query), JSON.parse(identity.filters), mirrorPath);
  const plan = await planTree(mirror, request.query);

  const parent = path.dirname(target.path);
  const staging = path.join(parent, `.${path.basename(target.path)}.mkt-export-${randomUUID()}`);
  // Removed whatever happens, once the mirror's queries have ended: none writes into it after.
  context.defer(async () => {
    await mirror.close();
    rmSync(staging, { recursive: true, force: true });
  });
  try {
    mkdirSync(parent, { recursive: true });
    mkdirSync(staging);
  } catch (error) {
    throw cannotWrite(target.path, error);
  }
  const progress = await context.progress();
  progress.step(`exporting ${groupDigits(plan.records)} records to ${target.path}`);
  context.log.debug(`writing the tree in ${staging}`);
  const records = await writeTree(mirror, request, plan.fields, staging).catch((error: unknown) => {
    if (context.signal.aborted) throw context.signal.reason;
    // The mirror was read: what failed is the writing of the files (a full disk, a permission).
    throw new MktError(`cannot write the tree ${target.path}: ${duckdbMessage((error as Error).cause ?? error)}`, { cause: error });
  });
  // Ctrl-C after DuckDB's last file, before the rename: the tree is not put in place.
  if (context.signal.aborted) throw context.signal.reason;
  let files: number;
  try {
    files = parquetFilesIn(staging);
    writeFileSync(path.join(staging, SUCCESS_FILE), '');
    putInPlace(staging, target);
  } catch (error) {
    throw cannotWrite(target.path, error);
  }
  const summary = `exported ${groupDigits(records)} ${records === 1 ? 'record' : 'records'} in ${groupDigits(files)} ${files === 1 ? 'file' : 'files'} to ${target.path}`;
  if (context.showsProgress) progress.finish(summary);
  else context.log.info(summary);
}

/** Where the tree goes: the path its links lead to, and whether a tree is there to replace. */
interface Target {
  path: string;
  /** A directory holds entries there, which --overwrite replaces. */
  replaces: boolean;
}

/**
 * `<dir>` checked before the mirror is read: nothing there, an empty directory, or with
 * `--overwrite` an earlier export. Through a symbolic link, the directory it leads to is
 * replaced and the link kept, as `-o` does with a file.
 */
function checkTarget(given: string, overwrite: boolean): Target {
  let real: string;
  let entries: string[];
  try {
    if (lstatSync(given, { throwIfNoEntry: false }) === undefined) return { path: given, replaces: false };
    const stats = statSync(given, { throwIfNoEntry: false });
    if (stats === undefined) throw new UsageError(`${given} is a symbolic link to nothing`, { hint: 'Name a directory for the tree, or a new path.' });
    if (!stats.isDirectory()) {
      throw new UsageError(`${given} is ${whatIsAt(stats)}, not a directory`, { hint: 'Name a directory for the tree, or a new path.' });
    }
    real = realpathSync(given);
    entries = readdirSync(real);
  } catch (error) {
    // A directory it may not read, links in a loop: said in one line.
    throw cannotWrite(given, error);
  }
  if (entries.length === 0) return { path: real, replaces: false };
  if (!overwrite) {
    throw new UsageError(`${given} is not empty`, { hint: 'Add --overwrite to replace an earlier export there, or name a new directory.' });
  }
  // --overwrite removes what is there: only the files and folders an export makes.
  const stranger = entries.find((entry) => entry !== SUCCESS_FILE && !PARTITION_KEYS.some((key) => entry.startsWith(`${key}=`)));
  if (stranger !== undefined) {
    throw new UsageError(`${given} holds ${stranger}, which no export wrote: --overwrite replaces only an export's tree`, {
      hint: 'Name a new directory, or empty this one.',
    });
  }
  return { path: real, replaces: true };
}

/** How many Parquet files DuckDB wrote, in every folder of the tree. */
function parquetFilesIn(directory: string): number {
  return readdirSync(directory, { recursive: true }).filter((entry) => String(entry).endsWith('.parquet')).length;
}

/** Renames the whole tree in: over an empty directory, or with the earlier tree renamed aside and then removed. */
function putInPlace(staging: string, target: Target): void {
  if (!target.replaces) {
    renameSync(staging, target.path);
    return;
  }
  const earlier = path.join(path.dirname(target.path), `.${path.basename(target.path)}.mkt-replaced-${randomUUID()}`);
  renameSync(target.path, earlier);
  try {
    renameSync(staging, target.path);
  } catch (error) {
    renameSync(earlier, target.path);
    throw error;
  }
  rmSync(earlier, { recursive: true, force: true });
}
