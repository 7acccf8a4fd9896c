import { ENUM_FILTER_VALUES } from '../api/filters.js';
import { Random } from './random.js';
import { DAY_MS, HISTORY_END_MS, HISTORY_START_MS, MICROS_PER_MS } from './time.js';
import { type FeeTypeName, VENUES } from './venues.js';

/**
 * The fee schedule results, held as compact columns: one small code per record and field that
 * can be filtered or sorted on. Everything else of a record is rebuilt from (seed, index) when
 * a page is served (see results-record.ts), so a million records cost a few megabytes.
 *
 * Records are grouped in versions: one scrape of one venue's fee schedule document of one
 * fee_type. Versions are numbered in the order they were scraped and each owns a contiguous
 * range of record indexes, and created_on grows with the index, so index order is both
 * created_on order and scraped_time order.
 */

/** The spellings records carry. The service document says records can carry OPTION and Fees And Rebates. */
export const FEE_TYPE_SPELLINGS = ['Equity', 'Option', 'OPTION'] as const;
export const FEE_CATEGORY_SPELLINGS = [...ENUM_FILTER_VALUES.fee_category, 'Fees And Rebates'] as const;
export const FEE_ACTIONS = ENUM_FILTER_VALUES.fee_action;
export const FEE_PARTICIPANTS = ENUM_FILTER_VALUES.fee_participant;
export const FEE_SYMBOL_CLASSIFICATIONS = ENUM_FILTER_VALUES.fee_symbol_classification;
export const FEE_SYMBOL_TYPES = ENUM_FILTER_VALUES.fee_symbol_type;
export const FEE_TRADE_TYPES = ENUM_FILTER_VALUES.fee_trade_type;
/** The code of a null fee_trade_type. */
export const NULL_CODE = 255;

/** A value's code: its index in the spelling list. Throws when absent, rather than giving -1. */
function codeOf<T extends string>(values: readonly T[], value: T): number {
  const code = values.indexOf(value);
  if (code < 0) throw new Error(`'${value}' is not among ${values.join(', ')}`);
  return code;
}

const FEE_TYPE_EQUITY = codeOf(FEE_TYPE_SPELLINGS, 'Equity');
const FEE_TYPE_OPTION_UPPER = codeOf(FEE_TYPE_SPELLINGS, 'OPTION');
const CATEGORY_FEE_AND_REBATES = codeOf(FEE_CATEGORY_SPELLINGS, 'Fee And Rebates');
const CATEGORY_FEES_AND_REBATES = codeOf(FEE_CATEGORY_SPELLINGS, 'Fees And Rebates');

/** Codes repeated by weight: picking uniformly from the list is a weighted pick. */
function weighted<T extends string>(values: readonly T[], weights: Partial<Record<T, number>>): number[] {
  return Object.entries(weights).flatMap(([value, weight]) => Array<number>(weight as number).fill(codeOf(values, value as T)));
}

const CATEGORY_WEIGHTS = weighted(FEE_CATEGORY_SPELLINGS, {
  'Fee And Rebates': 12,
  'Legal Regulatory Fees': 2,
  'Market Data Fees': 2,
  'Participant Fee': 2,
  'Port Fees And Other Services': 2,
});
const LIQUIDITY_ACTIONS = weighted(FEE_ACTIONS, { Make: 4, Take: 4, Routed: 2, Open: 1, Other: 1 });
const OPTION_PARTICIPANTS = weighted(FEE_PARTICIPANTS, {
  Customer: 4, Firm: 2, 'Broker Dealer': 2, 'Market Maker': 3, 'Away Market Maker': 1, Professional: 2, Other: 1, All: 1,
});
const EQUITY_PARTICIPANTS = weighted(FEE_PARTICIPANTS, { All: 6, 'Broker Dealer': 1, 'Market Maker': 1, Other: 1 });
const OPTION_CLASSIFICATIONS = weighted(FEE_SYMBOL_CLASSIFICATIONS, { Equity: 3, ETF: 2, Index: 2, 'N/A': 1, All: 2 });
const EQUITY_CLASSIFICATIONS = weighted(FEE_SYMBOL_CLASSIFICATIONS, { Equity: 4, ETF: 2, ETN: 1, All: 3, 'N/A': 1 });
const OPTION_SYMBOL_TYPES = weighted(FEE_SYMBOL_TYPES, { Penny: 3, 'Non Penny': 3, Both: 2, 'N/A': 1 });
const EQUITY_SYMBOL_TYPES = weighted(FEE_SYMBOL_TYPES, { 'N/A': 5, Both: 1 });
const OPTION_TRADE_TYPES = [...weighted(FEE_TRADE_TYPES, {
  'Index Options': 1, 'Multiply Traded Options': 2, 'Simple Order': 3, 'Complex Order': 2,
}), NULL_CODE, NULL_CODE];
const EQUITY_TRADE_TYPES = [codeOf(FEE_TRADE_TYPES, 'Simple Order'), NULL_CODE, NULL_CODE, NULL_CODE];

export interface ResultsDatasetOptions {
  seed: number;
  /** How many records; at most MAX_RECORDS (startSandbox checks). */
  records: number;
}

export class ResultsDataset {
  readonly seed: number;
  readonly size: number;
  readonly versionCount: number;

  /** Per version: the venue (index in VENUES). */
  readonly versionVenue: Uint8Array;
  /** Per version: the fee_type spelling (index in FEE_TYPE_SPELLINGS). */
  readonly versionFeeType: Uint8Array;
  /** Per version: its first record index; one more entry holds the total. */
  readonly versionStart: Uint32Array;
  /** Per version: scraped_time, in microseconds since the epoch. */
  readonly versionScrapedMicros: Float64Array;
  /** Per version: created_on of its first record, in microseconds since the epoch. */
  readonly versionCreatedMicros: Float64Array;
  /** Per version: microseconds between the created_on of consecutive records. */
  readonly versionStepMicros: Uint16Array;
  /** Per version: the scraped_time's UTC day, in days since the epoch. */
  readonly versionScrapedDay: Int32Array;
  /** Per version: 1 when it is the newest version with records of its (venue, fee_type). */
  readonly versionIsLatest: Uint8Array;

  /** Per record: its version. */
  readonly recordVersion: Uint16Array;
  /** Per record: codes into the spelling lists above. */
  readonly category: Uint8Array;
  readonly action: Uint8Array;
  readonly participant: Uint8Array;
  readonly symbolClassification: Uint8Array;
  readonly symbolType: Uint8Array;
  /** NULL_CODE where fee_trade_type is null. */
  readonly tradeType: Uint8Array;

  constructor(options: ResultsDatasetOptions) {
    this.seed = options.seed;
    this.size = options.records;
    const random = new Random(options.seed, 0x5e5);

    const groups = VENUES.flatMap((venue, venueIndex) =>
      venue.feeTypes.map((feeType: FeeTypeName) => ({ venueIndex, feeType, upperOdds: random.next() * 0.8 })),
    );
    // Several versions per group, scraped in an interleaved order.
    const order = groups.flatMap((_, groupIndex) => Array<number>(random.int(3, 7)).fill(groupIndex));
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const versionCount = order.length;
    this.versionCount = versionCount;
    this.versionVenue = new Uint8Array(versionCount);
    this.versionFeeType = new Uint8Array(versionCount);
    this.versionStart = new Uint32Array(versionCount + 1);
    this.versionScrapedMicros = new Float64Array(versionCount);
    this.versionCreatedMicros = new Float64Array(versionCount);
    this.versionStepMicros = new Uint16Array(versionCount);
    this.versionScrapedDay = new Int32Array(versionCount);
    this.versionIsLatest = new Uint8Array(versionCount);

    // Gaps of at least half the mean (more than a day) leave room for a version's records.
    const gaps = order.map(() => 0.5 + random.next());
    const recordWeights = order.map(() => 0.5 + random.next());
    const gapTotal = gaps.reduce((sum, gap) => sum + gap, 0);
    const weightTotal = recordWeights.reduce((sum, weight) => sum + weight, 0);
    const spanMs = HISTORY_END_MS - HISTORY_START_MS - DAY_MS;
    let gapSum = 0;
    let weightSum = 0;
    for (let v = 0; v < versionCount; v++) {
      const group = groups[order[v]!]!;
      gapSum += gaps[v]!;
      weightSum += recordWeights[v]!;
      const scrapedMs = HISTORY_START_MS + Math.floor((spanMs * (gapSum - gaps[0]!)) / gapTotal);
      const scrapedMicros = scrapedMs * MICROS_PER_MS + random.int(0, 999_999);
      this.versionVenue[v] = group.venueIndex;
      this.versionFeeType[v] = codeOf(FEE_TYPE_SPELLINGS, group.feeType);
      if (group.feeType === 'Option' && random.chance(group.upperOdds)) this.versionFeeType[v] = FEE_TYPE_OPTION_UPPER;
      this.versionScrapedMicros[v] = scrapedMicros;
      this.versionScrapedDay[v] = Math.floor(scrapedMs / DAY_MS);
      this.versionCreatedMicros[v] = scrapedMicros + random.int(30_000_000, 600_000_000);
      this.versionStepMicros[v] = random.int(100, 900);
      this.versionStart[v + 1] = Math.floor((this.size * weightSum) / weightTotal);
    }
    this.versionStart[versionCount] = this.size;

    const latestOfGroup = new Map<number, number>();
    for (let v = 0; v < versionCount; v++) {
      if (this.versionStart[v + 1]! > this.versionStart[v]!) latestOfGroup.set(order[v]!, v);
    }
    for (const v of latestOfGroup.values()) this.versionIsLatest[v] = 1;

    this.recordVersion = new Uint16Array(this.size);
    this.category = new Uint8Array(this.size);
    this.action = new Uint8Array(this.size);
    this.participant = new Uint8Array(this.size);
    this.symbolClassification = new Uint8Array(this.size);
    this.symbolType = new Uint8Array(this.size);
    this.tradeType = new Uint8Array(this.size);
    const otherAction = codeOf(FEE_ACTIONS, 'Other');
    for (let v = 0; v < versionCount; v++) {
      const isOption = this.versionFeeType[v] !== FEE_TYPE_EQUITY;
      for (let i = this.versionStart[v]!; i < this.versionStart[v + 1]!; i++) {
        this.recordVersion[i] = v;
        let category = random.pick(CATEGORY_WEIGHTS);
        if (category === CATEGORY_FEE_AND_REBATES && random.chance(0.3)) category = CATEGORY_FEES_AND_REBATES;
        this.category[i] = category;
        const isLiquidityFee = category === CATEGORY_FEE_AND_REBATES || category === CATEGORY_FEES_AND_REBATES;
        this.action[i] = isLiquidityFee ? random.pick(LIQUIDITY_ACTIONS) : otherAction;
        this.participant[i] = random.pick(isOption ? OPTION_PARTICIPANTS : EQUITY_PARTICIPANTS);
        this.symbolClassification[i] = random.pick(isOption ? OPTION_CLASSIFICATIONS : EQUITY_CLASSIFICATIONS);
        this.symbolType[i] = random.pick(isOption ? OPTION_SYMBOL_TYPES : EQUITY_SYMBOL_TYPES);
        this.tradeType[i] = random.pick(isOption ? OPTION_TRADE_TYPES : EQUITY_TRADE_TYPES);
      }
    }
  }

  /** created_on of a record, in microseconds since the epoch. */
  createdMicros(index: number): number {
    const v = this.recordVersion[index]!;
    return this.versionCreatedMicros[v]! + (index - this.versionStart[v]!) * this.versionStepMicros[v]!;
  }
}
