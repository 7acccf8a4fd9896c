import type { Context } from '../context.js';
import type { ExchangeResource } from '../api/paths.js';
import type { JsonObject } from '../output/exporter.js';
import { resolveFormat, writeDataset } from '../output/write.js';
import { renderExchangeView } from '../output/views/index.js';

export interface ExchangeRequest {
  exchange: string;
  resource: ExchangeResource;
  query?: Record<string, string>;
}

async function* once<T>(value: T): AsyncGenerator<T> {
  yield value;
}

async function* each<T>(values: readonly T[]): AsyncGenerator<T> {
  yield* values;
}

export async function runExchangeCommand(context: Context, request: ExchangeRequest): Promise<void> {
  const { deps, globals } = context;
  const settings = await context.settings();
  const format = resolveFormat({ format: settings.format, outputPath: globals.output, stdout: deps.stdout });
  const client = await context.client();
  const body = await client.fetchExchangeResource(request.exchange, request.resource, request.query);

  const target = { stream: deps.stdout, isTTY: deps.stdout.isTTY === true, color: context.stdoutColor, width: deps.stdout.columns };
  if (format === 'table' && !globals.output && !globals.columns && (await renderExchangeView(request.resource, body, target))) return;

  // The historical body's shape is not documented: an array stays an array, anything else one object.
  const dataset = Array.isArray(body)
    ? { shape: 'list' as const, records: each(body as JsonObject[]) }
    : { shape: 'object' as const, records: once(body as JsonObject) };
  await writeDataset(
    { ...dataset, select: globals.columns },
    { format, outputPath: globals.output, stdout: deps.stdout, color: context.stdoutColor, signal: context.signal },
  );
}
