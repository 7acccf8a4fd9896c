import type { Context } from './context.js';
import type { ExchangeResource } from '../api/paths.js';
import { ratesAtVolume } from '../api/tiers.js';
import { MalformedResponseError } from '../core/errors.js';
import { inOneBatch, type JsonObject } from '../output/exporter.js';
import { stdoutTarget, writeDataset } from '../output/write.js';
import { checkKeptExchanges } from './known-exchanges.js';
import { outputOptions } from './output-options.js';
import { renderExchangeView } from '../output/views/index.js';

export interface ExchangeRequest {
  exchange: string;
  resource: ExchangeResource;
  query?: Record<string, string>;
  /** `fees --volume`: adds `at_volume`, the tier and rates that apply at this monthly volume. */
  volume?: number;
}

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

  // The historical body's shape is not documented: an array stays an array, anything else one object.
  const dataset = Array.isArray(body)
    ? { shape: 'list' as const, batches: inOneBatch(body as JsonObject[]) }
    : { shape: 'object' as const, batches: inOneBatch([body as JsonObject]) };
  await writeDataset({ ...dataset, select: globals.columns }, output);
}

/** The service's fee schedule plus `at_volume`; a schedule without numeric fees cannot be priced. */
function withRatesAtVolume(body: unknown, volume: number, host: string): JsonObject {
  const rates = typeof body === 'object' && body !== null ? ratesAtVolume((body as JsonObject).fee_schedule, volume) : undefined;
  if (!rates) throw new MalformedResponseError(`${host} sent a fee schedule without a numeric maker_fee and taker_fee: no rates at a volume`);
  return { ...(body as JsonObject), at_volume: rates };
}
