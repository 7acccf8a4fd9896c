#!/usr/bin/env node
// Why CSV and tables are written by hand: the libraries of the stack against mkt's writers,
// on the same rows, in one process. Needs csv-stringify and cli-table3 installed.
//
//   npm run build && node test/bench/export-writers.mjs
//
// CSV: 100,000 rows of 27 fields (commas, quotes, line breaks, emoji, null and empty strings);
// the outputs must be byte-identical. Tables: 1,000 to 20,000 rows of 8 short fields, and one
// cell of many lines; cli-table3's layout is quadratic in the number of rows.

import { stringify } from 'csv-stringify/sync';
import Table from 'cli-table3';

const { csvField } = await import(new URL('../../dist/output/csv.js', import.meta.url));
const { gridLines } = await import(new URL('../../dist/output/grid.js', import.meta.url));

function median(times) {
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

function time(label, runs, fn) {
  fn();
  const times = [];
  let out;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    out = fn();
    times.push(performance.now() - started);
  }
  console.log(`${label.padEnd(52)} ${median(times).toFixed(0).padStart(7)} ms (median of ${runs})`);
  return out;
}

const CSV_ROWS = 100_000;
const csvRows = Array.from({ length: CSV_ROWS }, (_, i) => [
  `3f1c2a4e-1111-2222-3333-${i}`, 'NYSE', 'Option', 'Fee And Rebates', 'Per Contract', '$0.25', 'Make', i % 3 ? null : '',
  'per contract', i % 7 ? 'plain note' : 'note, with "quotes"\nand newline 🚀', null, null, 'Customer', null, null, null,
  'Equity', 'Penny', null, 'SPY', null, null, null, null, `v-${i}`, '2024-05-01T13:45:12.123456+00:00', '2024-05-01T13:47:00.654321',
]);
const csvOptions = {
  record_delimiter: '\r\n',
  quote_record_delimiter: true, // without it a field with a bare LF or CR is not quoted
  cast: { string: (value) => (value === '' ? { value: '', quoted_empty: true } : value), boolean: (value) => String(value) },
};
console.log(`CSV, ${CSV_ROWS.toLocaleString('en-US')} rows of 27 fields`);
const perRow = time('  csv-stringify, one call per row', 5, () => csvRows.map((row) => stringify([row], csvOptions)).join(''));
const perBatch = time('  csv-stringify, one call per 1,000 rows', 5, () => {
  let out = '';
  for (let i = 0; i < CSV_ROWS; i += 1000) out += stringify(csvRows.slice(i, i + 1000), csvOptions);
  return out;
});
const byHand = time('  mkt csvField', 5, () => csvRows.map((row) => `${row.map(csvField).join(',')}\r\n`).join(''));
console.log(`  same bytes: ${perRow === perBatch && perBatch === byHand}`);

const tableRow = ['NYSE', 'Option', 'Fee And Rebates', 'Make', 'Market Maker', 'Penny', '$0.25 per contract', '2024-05-01T13:45:12.123456+00:00'];
const headers = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const target = { isTTY: false, color: false };
console.log('\nTables of 8 columns');
for (const rows of [1_000, 5_000, 20_000]) {
  const body = Array.from({ length: rows }, () => tableRow);
  if (rows <= 5_000) {
    time(`  cli-table3, ${rows.toLocaleString('en-US')} rows`, 1, () => {
      const table = new Table({ head: headers, style: { head: [], border: [], compact: true } });
      for (const row of body) table.push(row);
      return table.toString();
    });
  } else {
    console.log(`  cli-table3, ${rows.toLocaleString('en-US')} rows: not run (91 s when measured)`);
  }
  time(`  mkt gridLines, ${rows.toLocaleString('en-US')} rows`, 3, () => [...gridLines(headers.map((header) => ({ header })), { texts: body }, target)].join('\n'));
}
for (const lines of [50, 100]) {
  time(`  cli-table3, one cell of ${lines} lines`, 1, () => {
    const table = new Table({ head: ['a'], style: { head: [], border: [], compact: true } });
    table.push([`long ${'x, "y"\n'.repeat(lines)}end`]);
    return table.toString();
  });
}
