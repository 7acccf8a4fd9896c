import type { ExchangeOrderTypes } from '../../api/types.js';
import type { OutputTarget } from '../exporter.js';
import { renderGrid, renderKeyValueTable } from '../grid.js';

/** `mkt order-types`: each order type, supported ✓ or not ✗, with its description (wrapped, never cut). */
export function renderOrderTypesView(orderTypes: ExchangeOrderTypes, target: OutputTarget): string {
  const summary = renderKeyValueTable(
    [
      ['Exchange', orderTypes.exchange],
      ['Last updated', orderTypes.last_updated],
    ],
    target,
  );
  const grid = renderGrid(
    [{ header: 'Type', fit: 'whole' }, { header: 'Supported', fit: 'whole' }, { header: 'Description', fit: 'wrap' }],
    orderTypes.order_types.map((orderType) => [
      orderType.type,
      orderType.supported ? { text: '✓', style: 'green' } : { text: '✗', style: 'red' },
      orderType.description,
    ]),
    target,
  );
  return `${summary}\n${grid}`;
}
