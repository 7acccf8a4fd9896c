#!/usr/bin/env node
// What one page of `mkt results --offline` costs DuckDB alone, with nothing of mkt: its native
// library loaded, the mirror opened read-only, three queries like mkt's (the mirror's header, the
// count, the page's 100 records read by place as JSON arrays, as a mirror a sync left stored in
// created_on order is read) and the close,
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
await bindings.query(connection, 'SELECT layout, service, filters, results_in_order FROM mkt_mirror');
const counted = await bindings.fetch_chunk(await bindings.query(connection, 'SELECT count(*)::BIGINT, max(r.rowid)::BIGINT FROM results r'));
const count = Number(new BigInt64Array(bindings.vector_get_data(bindings.data_chunk_get_vector(counted, 0), 8).slice().buffer)[0]);
// The newest page: the last 100 places.
await bindings.query(connection, `SELECT json_array(r.*)::VARCHAR FROM results r WHERE r.rowid BETWEEN ${count - 100} AND ${count - 1} ORDER BY r.rowid DESC`);
bindings.disconnect_sync(connection);
bindings.close_sync(database);
