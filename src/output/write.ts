import { createWriteStream } from 'node:fs';
import { extname } from 'node:path';
import type { OutputStream } from '../core/deps.js';
import { abortReason, UsageError } from '../core/errors.js';
import { type Format, formatEntry, formatOfExtension } from './formats.js';
import type { Dataset, JsonObject, OutputTarget } from './exporter.js';
import { validateColumns } from './columns.js';
import { cannotWrite, outputDestination } from './output-path.js';
import { isBrokenPipe } from './sink.js';

/** How and where `writeDataset` writes. */
export interface WriteOptions {
  /**
   * `--format`. When absent: from the `--output` extension (src/output/formats.ts; json for any
   * other file), else table when stdout is a terminal, else json.
   */
  format?: Format;
  /** The profile's format: used when neither `--format` nor a known extension decides. */
  defaultFormat?: Format;
  /** `--output`; absent: stdout. */
  outputPath?: string;
  stdout: OutputStream;
  /** Standard error: written through for `-o /dev/stderr`. */
  stderr: OutputStream;
  /** Colour allowed on stdout (NO_COLOR, --no-color, FORCE_COLOR and isTTY already weighed). */
  color: boolean;
  /** Ctrl-C or SIGTERM: the export stops, no file is left, and InterruptedError is thrown. */
  signal: AbortSignal;
  /** `--csv-safe`: CSV cells a spreadsheet would take for a formula are written after a `'`. */
  csvSafe?: boolean;
  /**
   * Rows of a Parquet row group: a few for tests whose point is several row groups, which then
   * need a few rows rather than tens of thousands.
   * @default PARQUET_ROW_GROUP_ROWS (src/output/parquet.ts)
   */
  parquetRowGroupRows?: number;
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
 * The stream of one of this process's descriptors, which `-o /dev/stdout` or `/proc/self/fd/3`
 * names: standard output and error are the process's own streams, any other is written
 * through and left open.
 */
function descriptorStream(descriptor: number, options: Pick<WriteOptions, 'stdout' | 'stderr'>): OutputStream {
  if (descriptor === 1) return options.stdout;
  if (descriptor === 2) return options.stderr;
  return createWriteStream('', { fd: descriptor, autoClose: false });
}

/**
 * Writes a dataset in the resolved format to stdout, or to `outputPath`: a file whole or not at
 * all (see writeAtomically), a descriptor (`-o /dev/stdout`) through it, as stdout is. Records
 * are pulled as the sink takes them. A reader of a pipe that goes away (`mkt … | head`) ends
 * the export quietly: it resolves.
 */
export async function writeDataset(dataset: Dataset, options: WriteOptions): Promise<WriteResult> {
  const { outputPath, signal } = options;
  const format = resolveFormat(options);
  // Columns declared by the first record are checked when it has come (tabulate, selectedBatches).
  if (dataset.select && Array.isArray(dataset.columns)) validateColumns(dataset.select, dataset.columns);
  if (signal.aborted) throw abortReason(signal);
  const exporter = await formatEntry(format).load();
  let records = 0;
  const counted: Dataset<JsonObject> = {
    ...dataset,
    batches: countedBatches(dataset.batches, signal, (count) => {
      records += count;
    }),
  };
  const run = (target: OutputTarget): Promise<void> => untilAborted(exporter.write(counted, { ...target, csvSafe: options.csvSafe, parquetRowGroupRows: options.parquetRowGroupRows }), signal);
  const result = (): WriteResult => (outputPath === undefined ? { format, records } : { format, records, path: outputPath });

  let target = stdoutTarget(options);
  if (outputPath !== undefined) {
    const destination = outputDestination(outputPath);
    if ('file' in destination) {
      const { writeAtomically } = await import('./atomic-file.js');
      try {
        await writeAtomically(destination.file, outputPath, (stream) => run({ stream, isTTY: false, color: false }));
      } catch (error) {
        if (signal.aborted) throw abortReason(signal);
        throw error; // writeAtomically has named the file
      }
      return result();
    }
    target = { stream: descriptorStream(destination.descriptor, options), isTTY: false, color: false };
  }
  try {
    await run(target);
  } catch (error) {
    if (signal.aborted) throw abortReason(signal);
    // What broke the stream (EPIPE, ENOSPC), rather than what a later write to it then met.
    const cause = target.stream.errored ?? error;
    if (!isBrokenPipe(cause)) throw cannotWrite(outputPath ?? 'to standard output', cause);
  }
  return result();
}
