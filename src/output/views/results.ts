import type { TableColumn } from '../exporter.js';

/**
 * The results table's one table of labels: short headers for the fields (`fee_amount` is
 * Amount), for the default columns, those `--columns` names and the detail line alike, so
 * that seven chosen columns fit 100 columns. CSV, JSON and Parquet keep the field names.
 */
export const RESULT_HEADERS: Readonly<Record<string, string>> = {
  id: 'ID',
  record_id: 'ID',
  exchange_name: 'Exchange',
  fee_type: 'Type',
  fee_category: 'Category',
  fee_charge_type: 'Charge type',
  fee_amount: 'Amount',
  fee_amount_value: 'Value',
  fee_amount_unit: 'Unit',
  fee_action: 'Action',
  fee_action_details: 'Action details',
  fee_basis: 'Basis',
  fee_notes: 'Notes',
  fee_reference: 'Reference',
  fee_participant: 'Participant',
  fee_participant_details: 'Participant details',
  fee_monthly_volume: 'Volume',
  fee_monthly_volume_criteria: 'Volume criteria',
  fee_symbol_classification: 'Symbol class',
  fee_symbol_type: 'Symbol type',
  fee_trade_type: 'Trade type',
  fee_symbol: 'Symbol',
  fee_excluded_symbols: 'Excluded symbols',
  fee_conditions: 'Conditions',
  fee_exclusions: 'Exclusions',
  fee_extra_info: 'Extra info',
  version_id: 'Version',
  scraped_time: 'Scraped',
  created_on: 'Created',
  // The 2026 edition's own (shared/service-2026.md).
  source_document: 'Source',
  source_link: 'Link',
  page_number: 'Page',
  relationships: 'Relationships',
};

const column = (name: string, shown: Omit<TableColumn, 'name' | 'header'> = {}): TableColumn => ({ name, header: RESULT_HEADERS[name] ?? name, ...shown });

/**
 * What a results table shows when --columns does not say, in this order. Exchange, type,
 * category, action, participant and amount say what a line item is: they are always shown, and
 * when they cannot fit in a row the table turns vertical. Then, room permitting, when it was
 * scraped (priority 2) and the symbol type (priority 1, left out first). Items alike in those
 * may differ in charge type, basis, symbol or volume tier: too wide for columns, these are the
 * line under each row. With `--parse-amounts`, the value and unit follow the amount.
 */
export function resultsTableColumns(parsedAmounts: boolean): TableColumn[] {
  return [
    column('exchange_name'),
    column('fee_type'),
    column('fee_category'),
    column('fee_action'),
    column('fee_participant'),
    column('fee_symbol_type', { priority: 1 }),
    // Wrapped at its spaces rather than cut: `$0.0020 if ADV ≥ 0.5%, otherwise $0.0030` cut to `$0.0020 if…` misleads.
    column('fee_amount', { fit: 'words' }),
    ...(parsedAmounts ? [column('fee_amount_value'), column('fee_amount_unit')] : []),
    column('scraped_time', { priority: 2 }),
    ...['fee_charge_type', 'fee_basis', 'fee_symbol', 'fee_monthly_volume'].map((name) => column(name, { detail: true })),
  ];
}
