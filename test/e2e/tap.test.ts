import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addVersions } from '../contract/http.js';
import { type RecordedRequest, startRecordingServer } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { readSingerMessages, type SingerStateValue } from '../helpers/singer-messages.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 41, point 2: `mkt tap` speaks the Singer specification against either shape of the service.
const sandbox = useSandbox({ records: 250 });
const sandbox2026 = useSandbox({ records: 120, shape: '2026' });

/** A file of JSON in a fresh directory, as Meltano writes config, state and catalog. */
function jsonFile(name: string, value: unknown): string {
  const file = join(tempDir('mkt-tap-'), name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

function tap(target: { url: string; keys: { api_key: string } }, args: readonly string[]) {
  return runInProcess(['tap', ...args], { env: { MKT_BASE_URL: target.url, MKT_API_KEY: target.keys.api_key } });
}

/** What `results --all` answers, oldest first: the records a tap without state sends. */
async function serviceRecords(target: { url: string; keys: { api_key: string } }): Promise<Record<string, unknown>[]> {
  const run = await runInProcess(['results', '--all', '--order-dir', 'asc', '-f', 'ndjson'], { env: { MKT_BASE_URL: target.url, MKT_API_KEY: target.keys.api_key } });
  expect(run.code).toBe(0);
  return run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Adds a version of the group with `added` records more than the one before (and the others it carries over): its record count. */
async function addVersion(url: string, exchange: string, feeType: string, added: number): Promise<number> {
  return (await addVersions({ url }, { exchange_name: exchange, fee_type: feeType, added }))[0]!.records;
}

const idOf = (record: Record<string, unknown>) => (record.id ?? record.record_id) as string;
const lastState = (states: readonly SingerStateValue[]) => states.at(-1) as SingerStateValue;

describe('mkt tap against a service of the interface shape', () => {
  it('sends SCHEMA, every record oldest first as RFC 3339, then a STATE of the newest created_on and its ids; a second run sends what was added, ties included', async () => {
    const config = jsonFile('config.json', {});
    const first = await tap(sandbox.current, ['--config', config]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('sent 250 records of fee_schedule_results in 3 requests\n');
    const run1 = readSingerMessages(first.stdout);
    expect(run1.types).toEqual(['SCHEMA', ...Array(250).fill('RECORD'), 'STATE']);
    expect(run1.schemas[0]?.key_properties).toEqual(['id']);
    expect(run1.schemas[0]?.bookmark_properties).toEqual(['created_on']);

    const service = await serviceRecords(sandbox.current);
    expect(run1.records.map((message) => message.record.id)).toEqual(service.map(idOf));
    // Values as the service sent them, but the timestamps, in RFC 3339.
    const [sent] = service;
    expect(run1.records[0]?.record).toEqual({ ...sent, created_on: `${sent?.created_on as string}+00:00` });
    const newest = service.at(-1) as Record<string, unknown>;
    expect(lastState(run1.states)).toEqual({
      bookmarks: { fee_schedule_results: { created_on: `${newest.created_on as string}+00:00`, ids_at_cursor: [newest.id] } },
    });

    // A version of over 100 records that share one created_on: a tie across two pages, newest first.
    const added = await addVersion(sandbox.current.url, 'NYSE', 'Option', 130);
    expect(added).toBeGreaterThan(130);
    const state = jsonFile('state.json', lastState(run1.states));
    const second = await tap(sandbox.current, ['--config', config, '--state', state]);
    expect(second.code).toBe(0);
    const run2 = readSingerMessages(second.stdout);
    expect(run2.types).toEqual(['SCHEMA', ...Array(added).fill('RECORD'), 'STATE']);
    const now = await serviceRecords(sandbox.current);
    expect(run2.records.map((message) => message.record.id)).toEqual(now.slice(250).map(idOf));
    expect(lastState(run2.states).bookmarks.fee_schedule_results.ids_at_cursor.sort()).toEqual(now.slice(250).map(idOf).sort());

    // Nothing new: the schema and the same bookmark. The newest page holds only records that tie
    // on the bookmark's created_on, so the next is read too, to its first older record.
    const third = await tap(sandbox.current, ['--config', config, '--state', jsonFile('state.json', lastState(run2.states))]);
    expect(third.code).toBe(0);
    expect(third.stderr).toBe('sent 0 records of fee_schedule_results in 2 requests\n');
    const run3 = readSingerMessages(third.stdout);
    expect(run3.types).toEqual(['SCHEMA', 'STATE']);
    expect(run3.states).toEqual([lastState(run2.states)]);
  });

  it('takes filters from the config in either spelling, and sends them in the service\'s', async () => {
    const config = jsonFile('config.json', { exchange_name: 'NYSE', fee_type: ['options'], latest_only: true });
    const run = await tap(sandbox.current, ['--config', config, '--quiet']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const online = await runInProcess(['results', '--all', '--exchange-name', 'NYSE', '--fee-type', 'Option', '--latest-only', '-f', 'ndjson'], {
      env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key },
    });
    const records = readSingerMessages(run.stdout).records;
    expect(records.length).toBeGreaterThan(0);
    expect(records.map((message) => message.record.id).sort()).toEqual(online.stdout.trim().split('\n').map((line) => idOf(JSON.parse(line))).sort());
  });

  it('--discover prints the catalog: one stream, its JSON Schema, key id, replication key created_on', async () => {
    const run = await tap(sandbox.current, ['--discover', '--config', jsonFile('config.json', {})]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const catalog = JSON.parse(run.stdout) as { streams: { schema: { properties: Record<string, unknown> }; metadata: { breadcrumb: string[]; metadata: object }[] }[] };
    expect(catalog.streams).toHaveLength(1);
    const [stream] = catalog.streams;
    expect(stream).toMatchObject({ tap_stream_id: 'fee_schedule_results', stream: 'fee_schedule_results', key_properties: ['id'] });
    expect(stream?.schema.properties.created_on).toEqual({ type: 'string', format: 'date-time' });
    expect(stream?.schema.properties.scraped_time).toEqual({ type: 'string', format: 'date-time' });
    expect(stream?.schema.properties.fee_notes).toEqual({ type: ['string', 'null'] });
    expect(Object.keys(stream?.schema.properties ?? {})).toHaveLength(26);
    expect(stream?.metadata[0]).toEqual({
      breadcrumb: [],
      metadata: {
        inclusion: 'available',
        'selected-by-default': true,
        'table-key-properties': ['id'],
        'valid-replication-keys': ['created_on'],
        'forced-replication-method': 'INCREMENTAL',
        'replication-key': 'created_on',
      },
    });
    expect(stream?.metadata.find((entry) => entry.breadcrumb[1] === 'id')?.metadata).toEqual({ inclusion: 'automatic' });
    expect(stream?.metadata.find((entry) => entry.breadcrumb[1] === 'fee_notes')?.metadata).toEqual({ inclusion: 'available', 'selected-by-default': true });
  });

  it('with --catalog, sends the selected fields (the automatic ones always) and nothing for a stream not selected', async () => {
    const config = jsonFile('config.json', { exchange_name: 'CBOE' });
    const discovered = JSON.parse((await tap(sandbox.current, ['--discover', '--config', config])).stdout) as { streams: { metadata: { breadcrumb: string[]; metadata: Record<string, unknown> }[] }[] };
    const stream = discovered.streams[0] as (typeof discovered.streams)[number];
    for (const entry of stream.metadata) {
      if (entry.breadcrumb.length === 0) entry.metadata.selected = true;
      // Deselecting the key or the replication key does not take them out.
      else entry.metadata.selected = ['id', 'created_on', 'fee_amount'].includes(entry.breadcrumb[1] as string) ? false : entry.breadcrumb[1] === 'exchange_name';
    }
    const run = await tap(sandbox.current, ['--config', config, '--catalog', jsonFile('catalog.json', discovered)]);
    expect(run.code).toBe(0);
    const messages = readSingerMessages(run.stdout);
    expect(Object.keys(messages.schemas[0]?.schema as object)).toEqual(['type', 'properties']);
    expect(Object.keys((messages.schemas[0]?.schema as { properties: object }).properties)).toEqual(['id', 'exchange_name', 'created_on']);
    expect(messages.records.length).toBeGreaterThan(0);
    for (const message of messages.records) expect(Object.keys(message.record)).toEqual(['id', 'exchange_name', 'created_on']);

    // Older runners' --properties; a stream left unselected: no message, no request.
    (stream.metadata[0] as { metadata: Record<string, unknown> }).metadata.selected = false;
    const unselected = await tap(sandbox.current, ['--config', config, '--properties', jsonFile('catalog.json', discovered)]);
    expect(unselected).toMatchObject({ code: 0, stdout: '' });
    expect(unselected.stderr).toMatch(/^the catalog .*catalog\.json selects no stream: nothing to send\n$/);
  });
});

describe('mkt tap against a service of the 2026 shape', () => {
  it('keys by record_id, bookmarks the newest ids, and a second run sends exactly what was added', async () => {
    const config = jsonFile('config.json', {});
    const discovered = await tap(sandbox2026.current, ['--discover', '--config', config]);
    expect(discovered.code).toBe(0);
    const [stream] = (JSON.parse(discovered.stdout) as { streams: { key_properties: string[]; schema: { properties: Record<string, unknown> }; metadata: { breadcrumb: string[]; metadata: object }[] }[] }).streams;
    expect(stream?.key_properties).toEqual(['record_id']);
    expect(stream?.schema.properties).not.toHaveProperty('created_on');
    expect(stream?.schema.properties.relationships).toEqual({ type: ['object', 'null'] });
    expect(stream?.schema.properties.page_number).toEqual({ type: ['integer', 'null'] });
    expect(stream?.metadata[0]?.metadata).toEqual({
      inclusion: 'available',
      'selected-by-default': true,
      'table-key-properties': ['record_id'],
      'valid-replication-keys': [],
      'forced-replication-method': 'INCREMENTAL',
    });

    const first = await tap(sandbox2026.current, ['--config', config]);
    expect(first.code).toBe(0);
    const run1 = readSingerMessages(first.stdout);
    expect(run1.schemas[0]?.key_properties).toEqual(['record_id']);
    expect(run1.schemas[0]).not.toHaveProperty('bookmark_properties');
    const service = await serviceRecords(sandbox2026.current);
    expect(run1.records.map((message) => message.record.record_id)).toEqual(service.map(idOf));
    expect(lastState(run1.states)).toEqual({ bookmarks: { fee_schedule_results: { created_on: null, ids_at_cursor: service.map(idOf) } } });

    await addVersion(sandbox2026.current.url, 'nyse', 'option', 105);
    const second = await tap(sandbox2026.current, ['--config', config, '--state', jsonFile('state.json', lastState(run1.states))]);
    expect(second.code).toBe(0);
    const added = (await serviceRecords(sandbox2026.current)).slice(120).map(idOf);
    const run2 = readSingerMessages(second.stdout);
    expect(run2.records.map((message) => message.record.record_id)).toEqual(added);

    // Nothing new, told from the newest page, which holds ids the bookmark names; a setting of null is none.
    const third = await tap(sandbox2026.current, ['--config', jsonFile('config.json', { fee_type: null }), '--state', jsonFile('state.json', lastState(run2.states))]);
    expect(third.stderr).toBe('sent 0 records of fee_schedule_results in 1 request\n');
    expect(readSingerMessages(third.stdout).types).toEqual(['SCHEMA', 'STATE']);

    // A created_on bookmark is nothing a 2026 record compares with: exit 2 before the pages are read.
    const interfaceState = jsonFile('state.json', { bookmarks: { fee_schedule_results: { created_on: '2025-01-01T00:00:00.000000+00:00', ids_at_cursor: [] } } });
    const refused = await tap(sandbox2026.current, ['--config', config, '--state', interfaceState]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toBe(
      `mkt: the bookmark in ${interfaceState} has a created_on, and the service answers in the 2026 shape, whose records carry none\n`
        + 'The state belongs to a service of the interface shape: leave --state out to start from the beginning.\n',
    );
  });
});

describe('mkt tap usage', () => {
  let requests: RecordedRequest[] = [];
  const usage = async (args: readonly string[], env: Record<string, string> = {}) => {
    const server = await startRecordingServer();
    try {
      const run = await runInProcess(['tap', ...args], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k-secret-0123456789', ...env } });
      requests = server.requests;
      return run;
    } finally {
      await server.close();
    }
  };

  it.each([
    [[], 'mkt: mkt tap needs --config FILE\nA config of `{}` takes every result of the profile; `mkt tap --discover` prints the catalog.\n'],
    [['--config', 'c.json', '--format', 'json'], 'mkt: mkt tap takes no --format\nIts settings come from the config file (docs/pipelines.md); run `mkt tap --help` for its options.\n'],
    [['--config', 'c.json', '--base-url', 'http://127.0.0.1:9'], 'mkt: mkt tap takes no --base-url\nIts settings come from the config file (docs/pipelines.md); run `mkt tap --help` for its options.\n'],
    [['--config', 'c.json', '--bogus'], "mkt: unknown option '--bogus'\nRun `mkt tap --help` for usage.\n"],
    [['--discover', '--state', 's.json'], 'mkt: --discover writes the catalog: leave out --state and --catalog\n'],
    [['--config', 'c.json', '--catalog', 'a.json', '--properties', 'b.json'], 'mkt: give either --catalog or --properties, not both\n'],
    [['--config', '/nonexistent/c.json'], 'mkt: --config /nonexistent/c.json: no such file\n'],
  ])('mkt tap %j: exit 2, nothing sent', async (args, stderr) => {
    const run = await usage(args);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr });
    expect(requests).toEqual([]);
  });

  it.each([
    [{ api_key: 'k-secret-0123456789' }, 'holds "api_key": mkt tap never reads a key from its config\nTake it out of the file, and keep the key in the profile (`mkt auth login`) or in MKT_API_KEY.\n'],
    [{ token: 'x' }, 'holds "token": mkt tap never reads a key from its config\nTake it out of the file, and keep the key in the profile (`mkt auth login`) or in MKT_API_KEY.\n'],
    [{ fee_typ: 'Option' }, 'has an unknown setting "fee_typ"; did you mean fee_type?\nSettings: base_url, profile, exchange_name, supplier_name, fee_type, fee_category, fee_action, fee_participant, fee_symbol_classification, fee_symbol_type, fee_trade_type, start_date, end_date, latest_only.\n'],
    [{ latest_only: 'yes' }, ': latest_only must be true or false\n'],
    [{ fee_type: [] }, ': fee_type must be a value or a list of values\n'],
  ])('a config of %j: exit 2, the key never shown, nothing sent', async (config, message) => {
    const file = jsonFile('config.json', config);
    const run = await usage(['--config', file]);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `mkt: the config ${file} ${message}`.replace(`${file} :`, `${file}:`) });
    expect(run.stderr).not.toContain('k-secret');
    expect(requests).toEqual([]);
  });

  it('checks filter values and dates as results does, and a state file, before it sends anything', async () => {
    const dates = await usage(['--config', jsonFile('config.json', { start_date: '2024-02-30' })]);
    expect(dates).toMatchObject({ code: 2, stderr: 'mkt: --start-date: "2024-02-30" is not a date\nWrite dates as YYYY-MM-DD, e.g. 2024-01-31.\n' });
    const state = jsonFile('state.json', { bookmarks: { fee_schedule_results: { created_on: 'yesterday' } } });
    const badState = await usage(['--config', jsonFile('config.json', {}), '--state', state]);
    expect(badState).toMatchObject({
      code: 2,
      stderr: `mkt: ${state} is not a state mkt tap wrote: its created_on is not a timestamp\nGive the value of the last STATE message of a run, or leave --state out to start from the beginning.\n`,
    });
    const catalog = jsonFile('catalog.json', '[]');
    const badCatalog = await usage(['--config', jsonFile('config.json', {}), '--catalog', catalog]);
    expect(badCatalog).toMatchObject({ code: 2, stderr: `mkt: ${catalog} is not a Singer catalog: it needs a "streams" list\nWrite one with \`mkt tap --discover --config FILE > catalog.json\`.\n` });
    expect(requests).toEqual([]);
  });

  it('runs against --sandbox, which a base_url in the config contradicts', async () => {
    const run = await runInProcess(['--sandbox', 'tap', '--config', jsonFile('config.json', { exchange_name: 'NYSE', fee_type: 'Equity' }), '-q']);
    expect(run.code).toBe(0);
    expect(readSingerMessages(run.stdout).records.length).toBeGreaterThan(0);
    const refused = await runInProcess(['--sandbox', 'tap', '--config', jsonFile('config.json', { base_url: 'http://127.0.0.1:9' })]);
    expect(refused).toMatchObject({ code: 2, stdout: '', stderr: 'mkt: --sandbox runs its own server: leave base_url out of the config\n' });
  });
});
