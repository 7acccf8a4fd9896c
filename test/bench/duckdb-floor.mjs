#!/usr/bin/env node
// What one page of `mkt results --offline` costs DuckDB alone, with nothing of mkt: its native
// library loaded, the mirror opened read-only, three queries like mkt's (the mirror's header, the
// count, the page's 100 records chosen by their sort keys and read as JSON arrays) and the close,
// through @duckdb/node-bindings, the thinnest layer there is. `npm run bench` times it beside
// `results --offline` and online: no build of `results --offline` can take less.
//
//   node test/bench/duckdb-floor.mjs MIRROR
import { createRequire } from 'node:module';

const bindings = createRequire(import.meta.url)('@duckdb/node-bindings');
const config = bindings.create_config();
bindings.set_config(config, 'access_mode', 'READ_ONLY');
const database = await bindings.open(process.argv[2], config);
const connection = await bindings.connect(database);
const order = 'r.created_on DESC, r.id DESC';
await bindings.query(connection, 'SELECT layout, service, filters FROM mkt_mirror');
await bindings.query(connection, 'SELECT count(*)::BIGINT FROM results r');
await bindings.query(
  connection,
  `SELECT json_array(r.*)::VARCHAR FROM results r WHERE r.rowid IN (SELECT r.rowid FROM results r ORDER BY ${order} LIMIT 100) ORDER BY ${order}`,
);
bindings.disconnect_sync(connection);
bindings.close_sync(database);
