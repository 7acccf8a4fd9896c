import { extname } from 'node:path';
import type { OutputStream } from '../deps.js';
import { abortReason, UsageError } from '../errors.js';
import { type Format, formatEntry, formatOfExtension } from '../formats.js';
import type { Dataset, JsonObject, OutputTarget } from './exporter.js';
import { validateColumns } from './columns.js';
import { cannotWrite } from './output-path.js';
import { isBrokenPipe } from './sink.js';

/** How and where `writeDataset` writes. */
export interface WriteOptions {
  /**
   * `--format`. When absent: from the `--output` extension (src/formats.ts; json for any
   * other file), else table when stdout is a terminal, else json.
   */
  format?: Format;
  /** The profile's format: used when neither `--format` nor a known extension decides. */
  defaultFormat?: Format;
  /** `--output`; absent: stdout. */
  outputPath?: string;
  stdout: OutputStream;
  /** Colour allowed on stdout (NO_COLOR, --no-color, FORCE_COLOR and isTTY already weighed). */
  color: boolean;
  /** Ctrl-C or SIGTERM: the export stops, no file is left, and InterruptedError is thrown. */
  signal: AbortSignal;
}

export interface WriteResult {
  format: Format;
  /** Records taken from the dataset (all of them, unless the reader of stdout went away). */
  records: number;
  /** The file written, when `outputPath` was given. */
  path?: string;
}

/**
 * The format to write: `--format`, else the output file's extension, else the profile's
 * format, else table on a terminal and json elsewhere (a file is not a terminal). A binary
 * format to a terminal is a UsageError.
 */
export function resolveFormat(options: Pick<WriteOptions, 'format' | 'defaultFormat' | 'outputPath' | 'stdout'>): Format {
  const { format, defaultFormat, outputPath, stdout } = options;
  const fromExtension = outputPath === undefined ? undefined : formatOfExtension(extname(outputPath));
  const onTerminal = outputPath === undefined && stdout.isTTY === true;
  const resolved = format ?? fromExtension ?? defaultFormat ?? (onTerminal ? 'table' : 'json');
  if (formatEntry(resolved).binary && onTerminal) {
    throw new UsageError(`${resolved} is binary: use -o FILE or redirect stdout`);
  }
  return resolved;
}

/** Settles with `work`, or rejects with InterruptedError as soon as the signal aborts. */
function untilAborted(work: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The dataset's batches, their records counted, stopped between batches once the signal aborts. */
async function* countedBatches(
  batches: AsyncIterable<readonly object[]>,
  signal: AbortSignal,
  onBatch: (records: number) => void,
): AsyncGenerator<readonly JsonObject[]> {
  for await (const records of batches) {
    if (signal.aborted) throw abortReason(signal);
    onBatch(records.length);
    // Parsed JSON: the service's interfaces only lack JsonObject's index signature.
    yield records as readonly JsonObject[];
  }
}

/** Standard output as exporters and views see it: a terminal of some width, or not. */
export function stdoutTarget(options: Pick<WriteOptions, 'stdout' | 'color'>): OutputTarget {
  const { stdout, color } = options;
  return { stream: stdout, isTTY: stdout.isTTY === true, color, width: stdout.columns };
}

/**
 * Writes a dataset in the resolved format to stdout, or to `outputPath` whole or not at all
 * (see writeAtomically). Records are pulled as the sink takes them. A reader of stdout that
 * goes away (`mkt … | head`) ends the export quietly: it resolves.
 */
export async function writeDataset(dataset: Dataset, options: WriteOptions): Promise<WriteResult> {
  const { outputPath, stdout, signal } = options;
  const format = resolveFormat(options);
  if (dataset.select && dataset.columns) validateColumns(dataset.select, dataset.columns);
  if (signal.aborted) throw abortReason(signal);
  const exporter = await formatEntry(format).load();
  let records = 0;
  const counted: Dataset<JsonObject> = {
    ...dataset,
    batches: countedBatches(dataset.batches, signal, (count) => {
      records += count;
    }),
  };
  const run = (target: OutputTarget): Promise<void> => untilAborted(exporter.write(counted, target), signal);

  try {
    if (outputPath === undefined) {
      await run(stdoutTarget(options));
      return { format, records };
    }
    const { writeAtomically } = await import('./atomic-file.js');
    await writeAtomically(outputPath, (stream) => run({ stream, isTTY: false, color: false }));
    return { format, records, path: outputPath };
  } catch (error) {
    if (signal.aborted) throw abortReason(signal);
    if (outputPath !== undefined) throw error; // writeAtomically has named the file
    // What broke stdout (EPIPE, ENOSPC), rather than what a later write to it then met.
    const cause = stdout.errored ?? error;
    if (isBrokenPipe(cause)) return { format, records };
    throw cannotWrite('to standard output', cause);
  }
}
