import type { Exporter } from './exporter.js';
import { valueText } from './flatten.js';
import { ChunkSink } from './sink.js';
import { tabulate } from './tabular.js';

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * What a spreadsheet takes for the start of a formula, after OWASP's advice on CSV injection:
 * `=`, `+`, `-`, `@`, a tab or a carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text as one RFC 4180 field: `""` when empty; quoted, its quotes doubled, when it holds a quote, comma, CR or LF. */
function quotedText(text: string): string {
  if (text === '') return '""';
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One RFC 4180 field. null is empty and unquoted, an empty string is `""`, so that a reader
 * keeps them apart; a field holding a quote, comma, CR or LF is quoted, its quotes doubled.
 * Written by hand rather than with csv-stringify: the same bytes, for a fraction of its work (docs/formats.md).
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  return quotedText(valueText(value));
}

/**
 * One field for a spreadsheet (`--csv-safe`): a value that starts as a formula does, a negative
 * number included, is written after a `'`, which spreadsheets read as "this cell is text".
 */
export function csvSafeField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = valueText(value);
  return quotedText(FORMULA_START.test(text) ? `'${text}` : text);
}

/** `csv`: a header row of column names, then the rows of each record; CRLF after each. */
export const csvExporter: Exporter = {
  async write(dataset, target) {
    const { columns, batches, rowsOf } = await tabulate(dataset);
    const names = columns.map((column) => column.name);
    const field = target.csvSafe === true ? csvSafeField : csvField;
    const sink = new ChunkSink(target.stream);
    try {
      if (names.length > 0) sink.write(`${names.map(field).join(',')}\r\n`);
      for await (const records of batches) {
        let wait: Promise<void> | undefined;
        for (const record of records) {
          for (const row of rowsOf(record)) {
            let line = '';
            for (let index = 0; index < names.length; index++) {
              if (index > 0) line += ',';
              line += field(row[names[index] as string]);
            }
            wait = sink.write(`${line}\r\n`);
          }
        }
        if (wait) await wait;
      }
      await sink.close();
    } finally {
      sink.detach();
    }
  },
};
