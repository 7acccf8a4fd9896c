import type { Context } from '../context.js';
import type { Format } from '../formats.js';
import { resolveFormat, type WriteOptions } from '../output/write.js';

/**
 * Where and how a command's data goes: --format, -o, the profile's format and stdout, with
 * the format decided now, so that a bad choice (parquet to a terminal) fails before any request.
 */
export function outputOptions(context: Context, defaultFormat?: Format): WriteOptions & { format: Format } {
  const options = {
    format: context.globals.format,
    defaultFormat,
    outputPath: context.globals.output,
    stdout: context.deps.stdout,
    color: context.stdoutColor,
    signal: context.signal,
  };
  return { ...options, format: resolveFormat(options) };
}

