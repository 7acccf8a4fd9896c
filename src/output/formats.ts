import type { Exporter } from './exporter.js';

/**
 * The output formats: what `--format` takes, what `mkt config set format` stores, which
 * extensions of `-o FILE` choose them, and the exporter that writes each. Adding a format
 * means one entry here and one exporter file in src/output/.
 */
export interface FormatEntry {
  name: string;
  /** Extensions of `-o FILE` that choose this format, lower case, with the dot. */
  extensions: readonly string[];
  /** Bytes no terminal should receive: refused when stdout is one. */
  binary: boolean;
  /** The exporter, loaded only when the format is used. */
  load: () => Promise<Exporter>;
}

export const FORMAT_REGISTRY = [
  { name: 'table', extensions: [], binary: false, load: () => import('./table.js').then((module) => module.tableExporter) },
  { name: 'json', extensions: ['.json'], binary: false, load: () => import('./json.js').then((module) => module.jsonExporter) },
  {
    name: 'ndjson',
    extensions: ['.ndjson', '.jsonl'],
    binary: false,
    load: () => import('./ndjson.js').then((module) => module.ndjsonExporter),
  },
  { name: 'csv', extensions: ['.csv'], binary: false, load: () => import('./csv.js').then((module) => module.csvExporter) },
  {
    name: 'parquet',
    extensions: ['.parquet'],
    binary: true,
    load: () => import('./parquet.js').then((module) => module.parquetExporter),
  },
] as const satisfies readonly FormatEntry[];

export type Format = (typeof FORMAT_REGISTRY)[number]['name'];

export const FORMATS: readonly Format[] = FORMAT_REGISTRY.map((entry) => entry.name);

export function formatEntry(format: Format): FormatEntry {
  return FORMAT_REGISTRY.find((entry) => entry.name === format) as FormatEntry;
}

/** The format an output file's extension (`.csv`, with the dot, any case) chooses, if any. */
export function formatOfExtension(extension: string): Format | undefined {
  const lower = extension.toLowerCase();
  return FORMAT_REGISTRY.find((entry) => (entry.extensions as readonly string[]).includes(lower))?.name;
}
