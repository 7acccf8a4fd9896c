import { extname } from 'node:path';
import type { OutputStream } from '../deps.js';
import { abortReason, UsageError } from '../errors.js';
import { BYTE_STRING_FORMATS, type Dataset, type Exporter, type Format, type JsonObject, type OutputTarget, type RecordBatch } from './exporter.js';
import { validateColumns } from './columns.js';
import { isBrokenPipe } from './sink.js';

/** How and where `writeDataset` writes. */
export interface WriteOptions {
  /**
   * `--format`. When absent: from the `--output` extension (`.csv`, `.parquet`,
   * `.ndjson`/`.jsonl`, `.json`; json for any other file), else table when stdout is a
   * terminal, else json.
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

const EXTENSION_FORMATS: Readonly<Record<string, Format>> = {
  '.csv': 'csv',
  '.parquet': 'parquet',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.json': 'json',
};

/** Each format's module, loaded only when used: JSON never loads the Parquet writer. */
const EXPORTERS: Readonly<Record<Format, () => Promise<Exporter>>> = {
  table: () => import('./table.js').then((module) => module.tableExporter),
  json: () => import('./json.js').then((module) => module.jsonExporter),
  ndjson: () => import('./ndjson.js').then((module) => module.ndjsonExporter),
  csv: () => import('./csv.js').then((module) => module.csvExporter),
  parquet: () => import('./parquet.js').then((module) => module.parquetExporter),
};

/**
 * The format to write: `--format`, else the output file's extension, else the profile's
 * format, else table on a terminal and json elsewhere (a file is not a terminal). Parquet to a
 * terminal is a UsageError.
 */
export function resolveFormat(options: Pick<WriteOptions, 'format' | 'defaultFormat' | 'outputPath' | 'stdout'>): Format {
  const { format, defaultFormat, outputPath, stdout } = options;
  const fromExtension = outputPath === undefined ? undefined : EXTENSION_FORMATS[extname(outputPath).toLowerCase()];
  const onTerminal = outputPath === undefined && stdout.isTTY === true;
  const resolved = format ?? fromExtension ?? defaultFormat ?? (onTerminal ? 'table' : 'json');
  if (resolved === 'parquet' && onTerminal) {
    throw new UsageError('parquet is binary: use -o FILE or redirect stdout');
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

/**
 * The dataset's batches, their records counted, stopped between batches once the signal aborts.
 * A batch of byte strings reaching a format that would measure or re-encode them is a bug.
 */
async function* countedBatches(
  batches: AsyncIterable<RecordBatch>,
  format: Format,
  signal: AbortSignal,
  onBatch: (records: number) => void,
): AsyncGenerator<RecordBatch<JsonObject>> {
  for await (const batch of batches) {
    if (signal.aborted) throw abortReason(signal);
    if (batch.byteStrings && !BYTE_STRING_FORMATS.has(format)) throw new Error(`${format} cannot write byte strings`);
    onBatch(batch.records.length);
    // Parsed JSON: the service's interfaces only lack JsonObject's index signature.
    yield batch as RecordBatch<JsonObject>;
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
  const exporter = await EXPORTERS[format]();
  let records = 0;
  const counted: Dataset<JsonObject> = {
    ...dataset,
    batches: countedBatches(dataset.batches, format, signal, (count) => {
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
    if (outputPath === undefined && isBrokenPipe(error)) return { format, records };
    throw error;
  }
}
