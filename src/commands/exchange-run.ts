import type { Context } from './context.js';
import { EXCHANGE_FIELD_NAMES } from '../api/fields.js';
import type { ExchangeResource } from '../api/paths.js';
import { ratesAtVolume, withTierLists } from '../api/tiers.js';
import { MalformedResponseError } from '../core/errors.js';
import { deriveColumns } from '../output/columns.js';
import { type Column, type Dataset, inOneBatch, type JsonObject } from '../output/exporter.js';
import { flattenRecord } from '../output/flatten.js';
import { stdoutTarget, writeDataset } from '../output/write.js';
import { checkKeptExchanges } from './known-exchanges.js';
import { outputOptions } from './output-options.js';
import { isOfScheduleShape, renderExchangeView } from '../output/views/index.js';

export interface ExchangeRequest {
  exchange: string;
  resource: ExchangeResource;
  query?: Record<string, string>;
  /** `fees --volume`: adds `at_volume`, the tier and rates that apply at this monthly volume. */
  volume?: number;
}

/** The columns `fees --volume` adds after the schedule's, as `at_volume` (src/api/tiers.ts) holds them. */
const AT_VOLUME_FIELD_NAMES = ['at_volume.volume', 'at_volume.tier', 'at_volume.maker', 'at_volume.taker'];

/** A fee schedule's numbers, by the last part of their column's name; its other columns are text. */
const SCHEDULE_NUMBERS = new Set(['maker_fee', 'taker_fee', 'volume', 'maker_rebate', 'maker', 'taker']);

export async function runExchangeCommand(context: Context, request: ExchangeRequest): Promise<void> {
  const { globals } = context;
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  const kept = await checkKeptExchanges(context, [request.exchange]);
  const client = await context.client();
  let fetched: unknown;
  try {
    fetched = await client.fetchExchangeResource(request.exchange, request.resource, request.query);
  } catch (error) {
    throw kept.explain(request.exchange, error);
  }
  kept.warnOfAnswered();
  const body = request.volume === undefined ? fetched : withRatesAtVolume(fetched, request.volume, client.host);

  if (output.format === 'table' && !globals.output && !globals.columns) {
    if (await renderExchangeView(request.resource, body, stdoutTarget(output))) return;
  }
  await writeDataset({ ...datasetOf(request, body), select: globals.columns }, output);
}

/**
 * The answer as a dataset. A fee schedule (`fees`, `historical`) has declared columns, its
 * tiers as rows, so that every venue's export has the same columns in the same order. The
 * historical body's shape is not documented: of another shape, an array stays an array and
 * anything else is one object, its columns as the data has them.
 */
function datasetOf(request: ExchangeRequest, body: unknown): Dataset {
  const { resource } = request;
  if ((resource === 'fees' || resource === 'historical') && isOfScheduleShape(resource, body)) {
    const names = request.volume === undefined ? EXCHANGE_FIELD_NAMES[resource] : [...EXCHANGE_FIELD_NAMES[resource], ...AT_VOLUME_FIELD_NAMES];
    const record = body as JsonObject;
    return {
      shape: 'object',
      batches: inOneBatch([record]),
      columns: scheduleColumns(names, flattenRecord(withTierLists(record))),
      shapeForColumns: withTierLists,
    };
  }
  return Array.isArray(body)
    ? { shape: 'list', batches: inOneBatch(body as JsonObject[]) }
    : { shape: 'object', batches: inOneBatch([body as JsonObject]) };
}

/**
 * The declared columns, every one nullable (a schedule without tiers leaves the tier's blank).
 * A value of another kind than declared makes its column text: the server's, rather than a
 * failed export.
 */
function scheduleColumns(names: readonly string[], rows: readonly JsonObject[]): Column[] {
  const found = new Map(deriveColumns(rows).map((column) => [column.name, column.kind]));
  return names.map((name) => {
    const declared = SCHEDULE_NUMBERS.has(name.slice(name.lastIndexOf('.') + 1)) ? 'number' : 'string';
    const seen = found.get(name);
    return { name, kind: seen === undefined || seen === declared ? declared : 'string', nullable: true };
  });
}

/** The service's fee schedule plus `at_volume`; a schedule without numeric fees cannot be priced. */
function withRatesAtVolume(body: unknown, volume: number, host: string): JsonObject {
  const rates = typeof body === 'object' && body !== null ? ratesAtVolume((body as JsonObject).fee_schedule, volume) : undefined;
  if (!rates) throw new MalformedResponseError(`${host} sent a fee schedule without a numeric maker_fee and taker_fee: no rates at a volume`);
  return { ...(body as JsonObject), at_volume: rates };
}
