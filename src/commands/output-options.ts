import type { Context } from './context.js';
import { UsageError } from '../core/errors.js';
import type { Format } from '../output/formats.js';
import { checkOutputPath } from '../output/output-path.js';
import { resolveFormat, type WriteOptions } from '../output/write.js';

/**
 * Where and how a command's data goes: --format, -o, the profile's format, --csv-safe and
 * stdout, with the format decided and the -o path checked now, so that a bad choice (parquet
 * to a terminal, a directory, --csv-safe without csv) fails before any request.
 */
export function outputOptions(context: Context, defaultFormat?: Format): WriteOptions & { format: Format } {
  // `-o -` is standard output, as for curl and tar; `-o ./-` is a file named "-".
  const outputPath = context.globals.output === '-' ? undefined : context.globals.output;
  if (outputPath !== undefined) checkOutputPath(outputPath);
  const options = {
    format: context.globals.format,
    defaultFormat,
    outputPath,
    stdout: context.deps.stdout,
    stderr: context.deps.stderr,
    color: context.stdoutColor,
    signal: context.signal,
    csvSafe: context.globals.csvSafe === true,
  };
  const format = resolveFormat(options);
  if (options.csvSafe && format !== 'csv') {
    throw new UsageError(`--csv-safe applies to csv, not ${format}`, { hint: 'Add -f csv (or -o FILE.csv), or leave --csv-safe out.' });
  }
  return { ...options, format };
}
