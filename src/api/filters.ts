/**
 * The results endpoint's query parameters and their allowed values, in the spelling of the
 * service document's table. The client validates against these and the sandbox serves them.
 */

export const ENUM_FILTER_VALUES = {
  fee_type: ['Option', 'Equity'],
  fee_category: [
    'Fee And Rebates',
    'Legal Regulatory Fees',
    'Market Data Fees',
    'Participant Fee',
    'Port Fees And Other Services',
  ],
  fee_action: ['Make', 'Take', 'Open', 'Routed', 'Other'],
  fee_participant: [
    'Customer',
    'Firm',
    'Broker Dealer',
    'Market Maker',
    'Away Market Maker',
    'Professional',
    'Other',
    'All',
  ],
  fee_symbol_classification: ['ETF', 'ETN', 'Equity', 'Index', 'N/A', 'All'],
  fee_symbol_type: ['Penny', 'Non Penny', 'N/A', 'Both'],
  fee_trade_type: ['Index Options', 'Multiply Traded Options', 'Simple Order', 'Complex Order'],
} as const;

export type EnumFilterName = keyof typeof ENUM_FILTER_VALUES;
export const ENUM_FILTER_NAMES = Object.keys(ENUM_FILTER_VALUES) as EnumFilterName[];

export const ORDER_BY_VALUES = ['created_on', 'scraped_time', 'supplier_name', 'fee_type', 'fee_category'] as const;
export type OrderBy = (typeof ORDER_BY_VALUES)[number];
export const ORDER_DIR_VALUES = ['asc', 'desc'] as const;
export type OrderDir = (typeof ORDER_DIR_VALUES)[number];

export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

/** The parameters that take one of a fixed set of values: the filters (repeatable), then the sort. */
export const FIXED_VALUE_PARAMETERS: readonly { name: string; values: readonly string[]; repeatable: boolean }[] = [
  ...ENUM_FILTER_NAMES.map((name) => ({ name, values: ENUM_FILTER_VALUES[name], repeatable: true })),
  { name: 'order_by', values: ORDER_BY_VALUES, repeatable: false },
  { name: 'order_dir', values: ORDER_DIR_VALUES, repeatable: false },
];

/** The command-line flag of a query parameter: `fee_type` → `--fee-type`. */
export function flagOf(parameter: string): string {
  return `--${parameter.replaceAll('_', '-')}`;
}

/** Query of GET /api/v1/fee-schedule-results. Arrays are sent as repeated parameters. */
export interface ResultsQuery {
  exchange_name?: string[];
  supplier_name?: string[];
  fee_type?: string[];
  fee_category?: string[];
  fee_action?: string[];
  fee_participant?: string[];
  fee_symbol_classification?: string[];
  fee_symbol_type?: string[];
  fee_trade_type?: string[];
  /** YYYY-MM-DD, compared with the date of scraped_time. */
  start_date?: string;
  end_date?: string;
  latest_only?: boolean;
  order_by?: OrderBy;
  order_dir?: OrderDir;
  page_size?: number;
  page_number?: number;
  /** The 2026 edition's citations (src/api/results-query.ts): sent only when asked for. */
  include_source?: boolean;
  include_footnotes?: boolean;
  include_definitions?: boolean;
}
