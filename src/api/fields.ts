import type { FeeScheduleResult } from './types.js';

/** How a field's text is to be read by typed formats (Parquet). */
export type FieldKind =
  | 'string'
  /** ISO 8601 with a UTC offset: an instant. */
  | 'timestamp_utc'
  /** ISO 8601 without an offset: a wall-clock time. */
  | 'timestamp_local';

export interface FieldSpec<Name extends string = string> {
  name: Name;
  kind: FieldKind;
  nullable: boolean;
}

/** Every field of a fee schedule result, in the service document's order. */
export const FEE_SCHEDULE_RESULT_FIELDS = [
  { name: 'id', kind: 'string', nullable: false },
  { name: 'exchange_name', kind: 'string', nullable: false },
  { name: 'fee_type', kind: 'string', nullable: false },
  { name: 'fee_category', kind: 'string', nullable: false },
  { name: 'fee_charge_type', kind: 'string', nullable: false },
  { name: 'fee_amount', kind: 'string', nullable: false },
  { name: 'fee_action', kind: 'string', nullable: false },
  { name: 'fee_action_details', kind: 'string', nullable: true },
  { name: 'fee_basis', kind: 'string', nullable: true },
  { name: 'fee_notes', kind: 'string', nullable: true },
  { name: 'fee_reference', kind: 'string', nullable: true },
  { name: 'fee_participant', kind: 'string', nullable: false },
  { name: 'fee_participant_details', kind: 'string', nullable: true },
  { name: 'fee_monthly_volume', kind: 'string', nullable: true },
  { name: 'fee_monthly_volume_criteria', kind: 'string', nullable: true },
  { name: 'fee_symbol_classification', kind: 'string', nullable: false },
  { name: 'fee_symbol_type', kind: 'string', nullable: false },
  { name: 'fee_trade_type', kind: 'string', nullable: true },
  { name: 'fee_symbol', kind: 'string', nullable: true },
  { name: 'fee_excluded_symbols', kind: 'string', nullable: true },
  { name: 'fee_conditions', kind: 'string', nullable: true },
  { name: 'fee_exclusions', kind: 'string', nullable: true },
  { name: 'fee_extra_info', kind: 'string', nullable: true },
  { name: 'version_id', kind: 'string', nullable: false },
  { name: 'scraped_time', kind: 'timestamp_utc', nullable: false },
  { name: 'created_on', kind: 'timestamp_local', nullable: false },
] as const satisfies readonly FieldSpec<keyof FeeScheduleResult>[];

export const FEE_SCHEDULE_RESULT_FIELD_NAMES: readonly (keyof FeeScheduleResult)[] =
  FEE_SCHEDULE_RESULT_FIELDS.map((field) => field.name);
