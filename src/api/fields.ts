import type { ExchangeResource } from './paths.js';
import { type ServiceShape, shapeOfRecord } from './record-id.js';
import type { FeeScheduleResult, FeeScheduleResult2026 } from './types.js';

/** How a field's value is to be read by typed formats (Parquet) and the mirror. */
export type FieldKind =
  | 'string'
  /** A whole number (the 2026 record's page_number). */
  | 'integer'
  /** Any JSON value (relationships), written as its JSON text by CSV, Parquet and the mirror. */
  | 'json'
  /** ISO 8601 with a UTC offset: an instant. */
  | 'timestamp_utc'
  /** ISO 8601 without an offset: a wall-clock time. */
  | 'timestamp_local';

export interface FieldSpec<Name extends string = string> {
  name: Name;
  kind: FieldKind;
  nullable: boolean;
}

/** Every field of a fee schedule result of the interface shape, in the service document's order. */
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

/** Where a line item is cited: the 2026 edition's source fields and relationships, null unless asked for. */
export const CITATION_FIELDS = [
  { name: 'source_document', kind: 'string', nullable: true },
  { name: 'source_link', kind: 'string', nullable: true },
  { name: 'page_number', kind: 'integer', nullable: true },
  { name: 'relationships', kind: 'json', nullable: true },
] as const satisfies readonly FieldSpec<keyof FeeScheduleResult2026>[];

/** The 2026 edition's fields that may be null where the interface document's may not. */
const NULLABLE_IN_2026: ReadonlySet<string> = new Set(['fee_symbol_classification', 'fee_symbol_type']);

/** A field both shapes have, as the 2026 edition declares it: the interface document's kind, nullable where the edition says. */
function sharedField<Name extends keyof FeeScheduleResult & keyof FeeScheduleResult2026>(name: Name): FieldSpec<Name> {
  const field = FEE_SCHEDULE_RESULT_FIELDS.find((candidate) => candidate.name === name) as FieldSpec<Name>;
  return NULLABLE_IN_2026.has(name) ? { ...field, nullable: true } : field;
}

const [SOURCE_DOCUMENT, SOURCE_LINK, PAGE_NUMBER, RELATIONSHIPS] = CITATION_FIELDS;

/** Every field of a 2026 record, in the key order of shared/service-2026.md. */
export const FEE_SCHEDULE_RESULT_2026_FIELDS: readonly FieldSpec<keyof FeeScheduleResult2026>[] = [
  { name: 'record_id', kind: 'string', nullable: false },
  ...(['exchange_name', 'scraped_time', 'version_id', 'fee_type'] as const).map(sharedField),
  SOURCE_DOCUMENT,
  SOURCE_LINK,
  PAGE_NUMBER,
  ...([
    'fee_category', 'fee_charge_type', 'fee_amount', 'fee_action', 'fee_action_details', 'fee_basis', 'fee_participant',
    'fee_participant_details', 'fee_monthly_volume', 'fee_monthly_volume_criteria', 'fee_symbol_classification', 'fee_symbol_type',
    'fee_trade_type', 'fee_symbol', 'fee_excluded_symbols', 'fee_conditions', 'fee_exclusions', 'fee_notes', 'fee_extra_info',
  ] as const).map(sharedField),
  RELATIONSHIPS,
];

/**
 * The interface document's fields, then the citation fields: the columns of interface records
 * that carry citations (a service of the first shape answering the include flags) in CSV,
 * Parquet and the table, and of a mirror of interface records (docs/formats.md, docs/mirror.md).
 */
export const FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS: readonly FieldSpec[] = [...FEE_SCHEDULE_RESULT_FIELDS, ...CITATION_FIELDS];

/** The declared column set of each shape's records: what CSV, Parquet and the table write. */
export const RESULT_FIELDS: Readonly<Record<ServiceShape, readonly FieldSpec[]>> = {
  interface: FEE_SCHEDULE_RESULT_FIELDS,
  '2026': FEE_SCHEDULE_RESULT_2026_FIELDS,
};

/**
 * The columns of results whose first record is `first`: its shape's set, and for an interface
 * record that carries a citation field, the set with the citation fields after it. No record:
 * the set of the answer's shape (the interface's when unknown), so that an empty export has
 * the header a full one would have.
 */
export function resultFieldsOf(first: object | undefined, answered: ServiceShape = 'interface'): readonly FieldSpec[] {
  if (first === undefined) return RESULT_FIELDS[answered];
  const shape = shapeOfRecord(first);
  if (shape === 'interface' && CITATION_FIELDS.some((field) => field.name in first)) return FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS;
  return RESULT_FIELDS[shape];
}

/** Every results field of either shape, once, the interface document's first: what `--columns` of results accepts and completes. */
export const ANY_RESULT_FIELDS: readonly FieldSpec[] = [
  ...FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS,
  ...FEE_SCHEDULE_RESULT_2026_FIELDS.filter((field) => !FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS.some((own) => own.name === field.name)),
];

export const RESULT_FIELD_NAMES: readonly string[] = ANY_RESULT_FIELDS.map((field) => field.name);

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
