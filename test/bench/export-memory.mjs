#!/usr/bin/env node
// Peak RSS of writing 20,000 and 200,000 fee schedule results in each format to a file, through
// writeDataset as `mkt results --all -o FILE` does. Records are generated in-process, 100 to a
// page with a turn of the event loop between pages (where a fetch would be), each a fresh
// object of about 1 KB, as JSON.parse would make it, and after each page what `mkt results` does
// after each page (walkHeapControl). Each run is its own process, so that its peak (maxRSS) is
// its own.
//
//   npm run build && node test/bench/export-memory.mjs [--formats json,ndjson,csv,parquet,table] [--counts 20000,200000]
//
// Exits 1 when a gated format's 200k peak is over 1.5× its 20k peak or over 250 MB. The table
// format is measured but not gated: it holds every row by design (column widths need them all).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const distWrite = new URL('../../dist/output/write.js', import.meta.url);
const distFields = new URL('../../dist/api/fields.js', import.meta.url);
const distHeap = new URL('../../dist/io/heap.js', import.meta.url);

const NOTES = [
  'Applies to orders in penny classes, excluding SPY, QQQ and IWM; see the "Complex Order" section.',
  'Rebate paid monthly.\nTier qualification uses ADV over the prior calendar month.',
  'Ｆｕｌｌｗｉｄｔｈ notes 🚀 and émigré accents',
  '',
  null,
];

function record(index) {
  const id = (n) => `${(n * 2654435761 >>> 0).toString(16).padStart(8, '0')}-1c2a-4e11-8222-${String(n).padStart(12, '0')}`;
  const micros = String(index % 1_000_000).padStart(6, '0');
  const note = (offset) => NOTES[(index + offset) % NOTES.length];
  return {
    id: id(index),
    exchange_name: ['NYSE', 'CBOE', 'NASDAQ', 'IEX'][index % 4],
    fee_type: index % 3 === 0 ? 'OPTION' : 'Equity',
    fee_category: index % 2 === 0 ? 'Fees And Rebates' : 'Market Data Fees',
    fee_charge_type: 'Per Contract',
    fee_amount: index % 5 === 0 ? '($0.0020)' : `$${(index % 100) / 100}`,
    fee_action: 'Make',
    fee_action_details: note(1),
    fee_basis: 'per contract',
    fee_notes: note(0),
    fee_reference: `Section ${index % 40}.${index % 7}`,
    fee_participant: 'Market Maker',
    fee_participant_details: note(2),
    fee_monthly_volume: index % 2 ? null : `${index % 50} million contracts`,
    fee_monthly_volume_criteria: note(3),
    fee_symbol_classification: 'Equity',
    fee_symbol_type: 'Penny',
    fee_trade_type: index % 2 ? 'Simple Order' : null,
    fee_symbol: index % 9 ? null : 'SPY',
    fee_excluded_symbols: note(4),
    fee_conditions: note(1),
    fee_exclusions: null,
    fee_extra_info: note(2),
    version_id: id(index + 7),
    scraped_time: `2024-05-01T13:45:${String(index % 60).padStart(2, '0')}.${micros}+00:00`,
    created_on: `2024-05-01T13:47:00.${micros}`,
  };
}

async function* pages(count, afterPage) {
  for (let start = 0; start < count; start += 100) {
    await new Promise((resolve) => setImmediate(resolve));
    afterPage();
    const records = [];
    for (let index = start; index < Math.min(start + 100, count); index++) records.push(record(index));
    yield { records };
  }
}

async function child(format, count, path) {
  const { writeDataset } = await import(distWrite);
  const { FEE_SCHEDULE_RESULT_FIELDS } = await import(distFields);
  const { walkHeapControl } = await import(distHeap);
  const started = performance.now();
  const written = await writeDataset(
    { shape: 'list', batches: pages(count, walkHeapControl(format)), columns: FEE_SCHEDULE_RESULT_FIELDS },
    { format, outputPath: path, stdout: process.stdout, color: false, signal: new AbortController().signal },
  );
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(JSON.stringify({ records: written.records, peakKiB: process.resourceUsage().maxRSS, seconds }));
}

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return (at === -1 ? fallback : process.argv[at + 1]).split(',');
}

async function parent() {
  const formats = option('formats', 'json,ndjson,csv,parquet,table');
  const counts = option('counts', '20000,200000').map(Number);
  const dir = mkdtempSync(join(tmpdir(), 'mkt-export-memory-'));
  const rows = [];
  let failed = false;
  try {
    for (const format of formats) {
      const runs = counts.map((count) => {
        const path = join(dir, `out-${count}.${format}`);
        const result = spawnSync(process.execPath, [here, '--child', format, String(count), path], { encoding: 'utf8', timeout: 600_000 });
        if (result.status !== 0) throw new Error(`${format} ${count}: ${result.stderr || result.error}`);
        const measured = JSON.parse(result.stdout);
        if (measured.records !== count) throw new Error(`${format} ${count}: wrote ${measured.records} records`);
        const bytes = statSync(path).size;
        rmSync(path);
        return { count, peakMB: measured.peakKiB / 1024, seconds: measured.seconds, fileMB: bytes / 1e6 };
      });
      const ratio = runs.at(-1).peakMB / runs[0].peakMB;
      const gated = format !== 'table';
      const ok = !gated || (ratio <= 1.5 && runs.at(-1).peakMB < 250);
      failed ||= !ok;
      rows.push({ format, runs, ratio, verdict: gated ? (ok ? 'PASS' : 'FAIL') : 'not gated' });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const header = ['format', ...counts.flatMap((count) => [`peak RSS ${count / 1000}k`, `time ${count / 1000}k`, `file ${count / 1000}k`]), 'ratio', 'verdict'];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const { format, runs, ratio, verdict } of rows) {
    const cells = runs.flatMap((run) => [`${run.peakMB.toFixed(0)} MB`, `${run.seconds.toFixed(1)} s`, `${run.fileMB.toFixed(0)} MB`]);
    console.log(`| ${format} | ${cells.join(' | ')} | ${ratio.toFixed(2)}× | ${verdict} |`);
  }
  console.log(`\nNode ${process.version}, ${process.arch}; ${failed ? 'FAIL' : 'PASS'}`);
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[2] === '--child') await child(process.argv[3], Number(process.argv[4]), process.argv[5]);
else await parent();
