import type { ExchangeResource } from '../../api/paths.js';
import type { ExchangeFeeSchedule, ExchangeOrderTypes, ExchangeRules } from '../../api/types.js';
import type { OutputTarget } from '../exporter.js';
import { isPlainObject } from '../flatten.js';
import { ChunkSink, isBrokenPipe } from '../sink.js';
import { renderFeesView } from './fees.js';
import { renderOrderTypesView } from './order-types.js';
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

function renderOfShape(resource: ExchangeResource, body: unknown, target: OutputTarget): string | undefined {
  if (!isPlainObject(body)) return undefined;
  switch (resource) {
    case 'fees':
      return isPlainObject(body.fee_schedule) && isPlainObject(body.fee_schedule.tier_thresholds)
        ? renderFeesView(body as unknown as ExchangeFeeSchedule, target)
        : undefined;
    case 'rules':
      return isPlainObject(body.rules) && isPlainObject(body.rules.trading_hours) && isPlainObject(body.rules.circuit_breakers)
        ? renderRulesView(body as unknown as ExchangeRules, target)
        : undefined;
    case 'orderTypes':
      return Array.isArray(body.order_types) ? renderOrderTypesView(body as unknown as ExchangeOrderTypes, target) : undefined;
    case 'historical':
      return undefined;
  }
}

/**
 * Writes the table an analyst reads for `fees`, `rules` or `order-types`. Resolves false when
 * the resource has no such view (historical) or the body is not of its shape, which a changed
 * service could cause: the caller then writes the dataset as a generic table. A broken pipe
 * ends quietly.
 */
export async function renderExchangeView(resource: ExchangeResource, body: unknown, target: OutputTarget): Promise<boolean> {
  const text = render(resource, body, target);
  if (text === undefined) return false;
  const sink = new ChunkSink(target.stream);
  try {
    sink.write(text);
    await sink.close();
  } catch (error) {
    if (!isBrokenPipe(error)) throw error;
  } finally {
    sink.detach();
  }
  return true;
}
