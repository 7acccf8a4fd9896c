import type { ExchangeResource } from '../../api/paths.js';
import type { ExchangeFeeSchedule, ExchangeOrderTypes, ExchangeRules, HistoricalFeeSchedules } from '../../api/types.js';
import type { OutputTarget } from '../exporter.js';
import { isJsonObject } from '../../core/json-object.js';
import { ChunkSink, isBrokenPipe } from '../sink.js';
import { renderFeesView } from './fees.js';
import { renderHistoricalView } from './historical.js';
import { renderOrderTypesView } from './order-types.js';
import { renderRecordView } from './record.js';
import { renderRulesView } from './rules.js';

/**
 * The view of a resource, when it has one and the body is of the shape the view reads. The
 * checks below cover the containers; a null or mistyped leaf (a null effective_date, a null
 * tier) makes the view throw a TypeError, which means the same: not the view's shape.
 */
function render(resource: ExchangeResource, body: unknown, target: OutputTarget): string | undefined {
  try {
    return renderOfShape(resource, body, target);
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}

/** The containers of a fee schedule (ExchangeFeeSchedule): of `fees`, and each of `historical`'s. */
function isFeeSchedule(body: unknown): boolean {
  return isJsonObject(body) && isJsonObject(body.fee_schedule) && isJsonObject(body.fee_schedule.tier_thresholds);
}

/** Whether an answer of `fees` or `historical` has the containers of its documented shape. */
export function isOfScheduleShape(resource: 'fees' | 'historical', body: unknown): boolean {
  if (resource === 'fees') return isFeeSchedule(body);
  return isJsonObject(body) && Array.isArray(body.fee_schedules) && body.fee_schedules.every((schedule) => isFeeSchedule(schedule));
}

function renderOfShape(resource: ExchangeResource, body: unknown, target: OutputTarget): string | undefined {
  if (!isJsonObject(body)) return undefined;
  switch (resource) {
    case 'fees':
      return isOfScheduleShape(resource, body) ? renderFeesView(body as unknown as ExchangeFeeSchedule, target) : undefined;
    case 'rules':
      return isJsonObject(body.rules) && isJsonObject(body.rules.trading_hours) && isJsonObject(body.rules.circuit_breakers)
        ? renderRulesView(body as unknown as ExchangeRules, target)
        : undefined;
    case 'orderTypes':
      return Array.isArray(body.order_types) ? renderOrderTypesView(body as unknown as ExchangeOrderTypes, target) : undefined;
    case 'historical':
      return isOfScheduleShape(resource, body) ? renderHistoricalView(body as unknown as HistoricalFeeSchedules, target) : undefined;
  }
}

/**
 * Writes the table an analyst reads for `fees`, `rules`, `order-types` or `historical`.
 * Resolves false when the body is not of the view's shape, which a changed service could cause
 * (and `historical`'s shape is not documented): the caller then writes the dataset as a generic
 * table. A broken pipe ends quietly.
 */
export async function renderExchangeView(resource: ExchangeResource, body: unknown, target: OutputTarget): Promise<boolean> {
  const text = render(resource, body, target);
  if (text === undefined) return false;
  await writeView(text, target);
  return true;
}

/** `mkt results get`'s table: the record, a field a line (renderRecordView). */
export async function writeRecordView(record: Readonly<Record<string, unknown>>, target: OutputTarget): Promise<void> {
  await writeView(renderRecordView(record, target), target);
}

/** A view's text to the target; a broken pipe ends quietly. */
async function writeView(text: string, target: OutputTarget): Promise<void> {
  const sink = new ChunkSink(target.stream);
  try {
    sink.write(text);
    await sink.close();
  } catch (error) {
    if (!isBrokenPipe(error)) throw error;
  } finally {
    sink.detach();
  }
}
