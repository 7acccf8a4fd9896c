import { statSync } from 'node:fs';
import path from 'node:path';
import type { Context } from './context.js';
import { dataDirectory } from '../config/paths.js';
import { UsageError } from '../core/errors.js';
import { serviceIdentity } from '../http/base-url.js';
import type { Mirror } from '../mirror/mirror.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The mirror a command uses: `--mirror`, else `MKT_MIRROR`, else `<profile>.duckdb` in the OS
 * data directory. With `--sandbox`, MKT_MIRROR is not read and the default is under `sandbox/`:
 * the sandbox's made-up data never lands in a mirror of the service.
 */
export function mirrorLocation(flag: string | undefined, env: Env, profile: string, sandbox: boolean): string {
  if (flag !== undefined) return path.resolve(flag);
  const fromEnv = sandbox ? undefined : env.MKT_MIRROR?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  return path.join(dataDirectory(env), ...(sandbox ? ['sandbox'] : []), `${profile}.duckdb`);
}

/** The mirror of a command: its `--mirror`, or the one of its profile (no sandbox is started to learn it). */
export async function mirrorOf(context: Context, flag: string | undefined): Promise<string> {
  const { resolveSettings } = await import('../config/resolve.js');
  const { profile } = resolveSettings({ flags: context.globals, env: context.deps.env });
  return mirrorLocation(flag, context.deps.env, profile, context.globals.sandbox === true);
}

/** A mirror being opened to be read: `opened` settles when DuckDB has opened it, or could not. */
export interface MirrorOpening {
  path: string;
  opened: Promise<Mirror>;
}

/**
 * Begins opening the mirror a command reads, and resolves once DuckDB has begun: it opens the file
 * on its own threads while the command's code loads, rather than after. The command meets a
 * failure to open when it awaits `opened`, after its own checks; the mirror is closed when the
 * command ends.
 */
export async function beginOpening(context: Context, flag: string | undefined): Promise<MirrorOpening> {
  const [path, { Mirror }] = await Promise.all([mirrorOf(context, flag), import('../mirror/mirror.js')]);
  const opened = Mirror.open(path, { write: false, signal: context.signal });
  // A failure here is the command's to meet, or none if it fails first.
  const settled = opened.catch(() => undefined);
  context.defer(async () => (await settled)?.close());
  return { path, opened };
}

/**
 * Refuses `-o` naming the mirror a command reads (by its path, or by a link to it): the answer
 * would be renamed into its place, and the mirror lost.
 */
export function checkNotWritingTheMirror(outputPath: string | undefined, mirror: string): void {
  if (outputPath === undefined) return;
  const output = statSync(outputPath, { throwIfNoEntry: false });
  const held = statSync(mirror, { throwIfNoEntry: false });
  const same = path.resolve(outputPath) === mirror || (output !== undefined && held !== undefined && output.dev === held.dev && output.ino === held.ino);
  if (same) throw new UsageError(`-o names the mirror ${mirror}, which the answer would replace`, { hint: 'Write the answer to another file.' });
}

/** The service a mirror is of: `sandbox`, or the base URL as services are told apart (serviceIdentity). */
export function serviceOf(settings: { baseUrlSource?: string; baseUrl?: string }): string {
  return settings.baseUrlSource === 'sandbox' ? 'sandbox' : serviceIdentity(settings.baseUrl ?? '');
}
