#!/usr/bin/env node
// How fast rows of a mirror become JavaScript (docs/performance.md, "Mirror reads"): the
// 26 columns as @duckdb/node-api converts them, value by value, made into records as mkt did
// until 2026-11-25, against one JSON array per row (ROW_AS_JSON) made into records by
// RecordReader, as `results --offline` and `mkt diff` now read.
// In one process, after a build; each way ROUNDS times, in turn.
//
//   node test/bench/mirror-read.mjs MIRROR [ROWS]
import { createRequire } from 'node:module';
import { FEE_SCHEDULE_RESULT_FIELD_NAMES as FIELDS } from '../../dist/api/fields.js';
import { RecordReader, ROW_AS_JSON } from '../../dist/mirror/rows.js';
import { formatTimestampMicros } from '../../dist/core/timestamps.js';

const [path, rows = '10000'] = process.argv.slice(2);
if (!path) {
  console.error('usage: node test/bench/mirror-read.mjs MIRROR [ROWS]');
  process.exit(2);
}
const ROUNDS = 8;
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');
const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
const from = `FROM results r LEFT JOIN mkt_timestamp_text t ON t.id = r.id LIMIT ${Number(rows)}`;

const COLUMNS = `${FIELDS.map((name) => `r.${name}`).join(', ')}, t.scraped_time, t.created_on`;

/** Each way: its query, and how its result becomes records. */
const ways = {
  'columns, by @duckdb/node-api': {
    sql: `SELECT ${COLUMNS} ${from}`,
    records: (result) => {
      const columns = result.getColumns();
      return Array.from({ length: result.currentRowCount }, (_, row) => {
        const record = {};
        FIELDS.forEach((name, field) => {
          const value = columns[field][row];
          const spelled = name === 'scraped_time' ? columns[FIELDS.length][row] : name === 'created_on' ? columns[FIELDS.length + 1][row] : null;
          record[name] = value === null || typeof value === 'string' ? value : (spelled ?? formatTimestampMicros(value.micros, name === 'scraped_time'));
        });
        return record;
      });
    },
  },
  'one JSON array a row, by RecordReader': {
    sql: `SELECT ${ROW_AS_JSON} ${from}`,
    records: (result) => {
      const reader = new RecordReader();
      const [texts = []] = result.getColumns();
      return texts.map((text) => reader.read(text));
    },
  },
};
const times = Object.fromEntries(Object.keys(ways).map((name) => [name, { query: [], records: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, way] of Object.entries(ways)) {
    const start = performance.now();
    const result = await connection.runAndReadAll(way.sql);
    const queried = performance.now();
    way.records(result);
    times[name].query.push(queried - start);
    times[name].records.push(performance.now() - queried);
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)].toFixed(0);
for (const [name, { query, records }] of Object.entries(times)) {
  console.log(`${name}, ${rows} rows: query ${median(query)} ms, records ${median(records)} ms (medians of ${ROUNDS})`);
}
connection.closeSync();
instance.closeSync();
