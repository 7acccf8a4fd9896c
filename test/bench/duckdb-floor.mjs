#!/usr/bin/env node
// What one page of `mkt results --offline` costs DuckDB alone, with nothing of mkt: @duckdb/node-api
// loaded, the mirror opened read-only, three queries like mkt's (the mirror's header, the count,
// the newest page's 100 records, chosen by their order keys and read as JSON arrays) and the close.
// `npm run bench` times it beside `results --offline` and online: no build of `results --offline`
// that reads through this API can take less.
//
//   node test/bench/duckdb-floor.mjs MIRROR
import { createRequire } from 'node:module';

const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');
const instance = await DuckDBInstance.create(process.argv[2], { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
await connection.run('SELECT layout, service, filters FROM mkt_mirror');
await connection.run('SELECT count(*)::BIGINT FROM results r');
const order = 'r.created_on DESC, r.id DESC';
await connection.run(`SELECT json_array(r.*)::VARCHAR FROM results r WHERE r.rowid IN (SELECT r.rowid FROM results r ORDER BY ${order} LIMIT 100) ORDER BY ${order}`);
connection.closeSync();
instance.closeSync();
