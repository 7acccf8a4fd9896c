import type { Context } from '../context.js';
import type { ExchangeResource } from '../api/paths.js';
import { inOneBatch, type JsonObject } from '../output/exporter.js';
import { stdoutTarget, writeDataset } from '../output/write.js';
import { warnOfUnknownExchanges } from './known-exchanges.js';
import { outputOptions } from './output-options.js';
import { renderExchangeView } from '../output/views/index.js';

export interface ExchangeRequest {
  exchange: string;
  resource: ExchangeResource;
  query?: Record<string, string>;
}

export async function runExchangeCommand(context: Context, request: ExchangeRequest): Promise<void> {
  const { globals } = context;
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  await warnOfUnknownExchanges(context, [request.exchange]);
  const client = await context.client();
  const body = await client.fetchExchangeResource(request.exchange, request.resource, request.query);

  if (output.format === 'table' && !globals.output && !globals.columns) {
    if (await renderExchangeView(request.resource, body, stdoutTarget(output))) return;
  }

  // The historical body's shape is not documented: an array stays an array, anything else one object.
  const dataset = Array.isArray(body)
    ? { shape: 'list' as const, batches: inOneBatch(body as JsonObject[]) }
    : { shape: 'object' as const, batches: inOneBatch([body as JsonObject]) };
  await writeDataset({ ...dataset, select: globals.columns }, output);
}
