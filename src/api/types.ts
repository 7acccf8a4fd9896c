/**
 * The service's resources, as `shared/service-interface.md` describes them.
 * The sandbox serves these and the client reads them: this file is the one source of truth.
 */

import type { ServiceShape } from './record-id.js';

/** A tier of an exchange fee schedule (key pattern `tier_<n>`). */
export interface FeeTier {
  volume: number;
  /** Negative: a rebate. */
  maker_rebate: number;
}

export interface FeeSchedule {
  /** Negative denotes a rebate. */
  maker_fee: number;
  taker_fee: number;
  tier_thresholds: Record<string, FeeTier>;
}

/** GET /api/v1/exchanges/{exchange}/fees */
export interface ExchangeFeeSchedule {
  exchange: string;
  /** YYYY-MM-DD */
  effective_date: string;
  fee_schedule: FeeSchedule;
  /** ISO 8601 timestamp with Z. */
  last_updated: string;
}

export interface TradingHours {
  /** HH:MM:SS, a single time. */
  pre_market: string;
  /** HH:MM:SS-HH:MM:SS */
  regular: string;
  /** HH:MM:SS-HH:MM:SS */
  after_hours: string;
}

export interface CircuitBreakers {
  /** Fractions of a decline, e.g. 0.07. */
  level_1: number;
  level_2: number;
  level_3: number;
}

export interface Rules {
  trading_hours: TradingHours;
  tick_size: number;
  lot_size: number;
  circuit_breakers: CircuitBreakers;
}

/** GET /api/v1/exchanges/{exchange}/rules */
export interface ExchangeRules {
  exchange: string;
  rules: Rules;
  effective_date: string;
  last_updated: string;
}

export interface OrderType {
  /** Values seen: LIMIT, MARKET, STOP, IOC, FOK. */
  type: string;
  description: string;
  supported: boolean;
}

/** GET /api/v1/exchanges/{exchange}/order-types */
export interface ExchangeOrderTypes {
  exchange: string;
  order_types: OrderType[];
  last_updated: string;
}

/**
 * GET /api/v1/exchanges/{exchange}/fees/historical as the sandbox answers it. The service
 * document does not show this shape (see docs/sandbox.md): the query echoed, and every schedule
 * in force at some moment of the period, oldest first. The client reads it only for its table
 * view, which falls back to the generic table when a body is of another shape.
 */
export interface HistoricalFeeSchedules {
  exchange: string;
  start_date: string | null;
  end_date: string | null;
  fee_schedules: ExchangeFeeSchedule[];
}

/** One fee or rebate line item (GET /api/v1/fee-schedule-results). Field order is the document's. */
export interface FeeScheduleResult {
  id: string;
  exchange_name: string;
  fee_type: string;
  fee_category: string;
  fee_charge_type: string;
  fee_amount: string;
  fee_action: string;
  fee_action_details: string | null;
  fee_basis: string | null;
  fee_notes: string | null;
  fee_reference: string | null;
  fee_participant: string;
  fee_participant_details: string | null;
  fee_monthly_volume: string | null;
  fee_monthly_volume_criteria: string | null;
  fee_symbol_classification: string;
  fee_symbol_type: string;
  fee_trade_type: string | null;
  fee_symbol: string | null;
  fee_excluded_symbols: string | null;
  fee_conditions: string | null;
  fee_exclusions: string | null;
  fee_extra_info: string | null;
  version_id: string;
  /** Timestamp with UTC offset and microseconds, e.g. 2024-05-01T13:45:12.123456+00:00 */
  scraped_time: string;
  /** Timestamp without offset, with microseconds, e.g. 2024-05-01T13:47:00.654321 */
  created_on: string;
}

/**
 * One line item as the 2026 edition sends it (shared/service-2026.md), in its key order: `record_id`
 * for `id`, no `created_on` or `fee_reference`, snake_case values, and the citation fields, null
 * unless asked for with include_source, include_footnotes or include_definitions.
 */
export interface FeeScheduleResult2026 {
  record_id: string;
  exchange_name: string;
  /** ISO 8601 with Z and microseconds, e.g. 2026-02-26T00:00:50.839337Z */
  scraped_time: string;
  version_id: string;
  fee_type: string;
  source_document: string | null;
  source_link: string | null;
  page_number: number | null;
  fee_category: string;
  fee_charge_type: string;
  fee_amount: string;
  fee_action: string;
  fee_action_details: string | null;
  fee_basis: string | null;
  fee_participant: string;
  fee_participant_details: string | null;
  fee_monthly_volume: string | null;
  fee_monthly_volume_criteria: string | null;
  fee_symbol_classification: string | null;
  fee_symbol_type: string | null;
  fee_trade_type: string | null;
  fee_symbol: string | null;
  fee_excluded_symbols: string | null;
  fee_conditions: string | null;
  fee_exclusions: string | null;
  fee_notes: string | null;
  fee_extra_info: string | null;
  relationships: RecordRelationships | null;
}

/** A 2026 record's footnotes and definitions, sent with include_footnotes or include_definitions. */
export interface RecordRelationships {
  footnotes: { text: string }[];
  definitions: { term: string; text: string }[];
}

/** A line item of either shape, told apart by shapeOfRecord (src/api/record-id.ts); its id is recordIdOf's. */
export type ResultRecord = FeeScheduleResult | FeeScheduleResult2026;

/**
 * A results page as every caller reads it, whichever envelope the service sent
 * (src/api/results-page.ts): the records as sent, and the counts that steer a walk.
 */
export interface FeeScheduleResultsPage {
  /** The edition whose envelope the answer used (docs/service-shapes.md). */
  shape: ServiceShape;
  data: ResultRecord[];
  /** The interface document's `total_records`, the 2026 edition's `meta.record_count`. */
  total_records: number;
  page_size: number;
  total_pages: number;
  /** 0-indexed; echoes page_number. */
  current_page: number;
}

/** The results endpoint's envelope as the interface document gives it: flat, as the sandbox sends it. */
export interface InterfaceResultsEnvelope {
  success: boolean;
  message: string;
  data: ResultRecord[];
  total_records: number;
  page_size: number;
  total_pages: number;
  /** 0-indexed; echoes page_number. */
  current_page: number;
  /** Seconds; null on error. */
  query_time: number | null;
  disable_jsonable_encoder: boolean;
}

/** The documented body of a 401 from the results endpoint. */
export interface UnauthorizedBody {
  message: string;
  data: [];
  query_time: null;
  success: false;
  disable_jsonable_encoder: false;
  status_code: 401;
}
