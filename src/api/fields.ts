import type { ExchangeResource } from './paths.js';
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

/**
 * The columns of each exchange command's output, as table, CSV and Parquet flatten its answer:
 * what `--columns` names. Those of `fees` and `historical` are declared, in this order, for
 * every venue: a schedule's tiers are rows (withTierLists in src/api/tiers.ts), one per tier.
 */
export const EXCHANGE_FIELD_NAMES: Readonly<Record<ExchangeResource, readonly string[]>> = {
  fees: [
    'exchange',
    'effective_date',
    'fee_schedule.maker_fee',
    'fee_schedule.taker_fee',
    'fee_schedule.tier_thresholds.tier',
    'fee_schedule.tier_thresholds.volume',
    'fee_schedule.tier_thresholds.maker_rebate',
    'last_updated',
  ],
  rules: [
    'exchange',
    'rules.trading_hours.pre_market',
    'rules.trading_hours.regular',
    'rules.trading_hours.after_hours',
    'rules.tick_size',
    'rules.lot_size',
    'rules.circuit_breakers.level_1',
    'rules.circuit_breakers.level_2',
    'rules.circuit_breakers.level_3',
    'effective_date',
    'last_updated',
  ],
  orderTypes: [
    'exchange',
    'order_types.type',
    'order_types.description',
    'order_types.supported',
    'last_updated',
  ],
  historical: [
    'exchange',
    'start_date',
    'end_date',
    'fee_schedules.exchange',
    'fee_schedules.effective_date',
    'fee_schedules.fee_schedule.maker_fee',
    'fee_schedules.fee_schedule.taker_fee',
    'fee_schedules.fee_schedule.tier_thresholds.tier',
    'fee_schedules.fee_schedule.tier_thresholds.volume',
    'fee_schedules.fee_schedule.tier_thresholds.maker_rebate',
    'fee_schedules.last_updated',
  ],
};
