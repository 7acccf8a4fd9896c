import type { EnumFilterName } from '../api/filters.js';
import type { ServiceShape } from '../api/record-id.js';
import {
  FEE_ACTIONS,
  FEE_CATEGORY_SPELLINGS,
  FEE_PARTICIPANTS,
  FEE_SYMBOL_CLASSIFICATIONS,
  FEE_SYMBOL_TYPES,
  FEE_TRADE_TYPES,
  FEE_TYPE_SPELLINGS,
  NULL_CODE,
  type ResultsDataset,
} from './results-dataset.js';
import { formatOffsetMicros, formatZuluMicros } from './time.js';
import { VENUES } from './venues.js';

/**
 * How one shape of the service spells what the dataset stores as codes: each enumerated
 * field's value of each code, and each venue's identifier. Both shapes serve the same codes.
 */
export interface Vocabulary {
  shape: ServiceShape;
  /** By field, the spelling of each code (an index of the dataset's spelling lists). */
  enums: Readonly<Record<EnumFilterName, readonly string[]>>;
  /** By venue index, the exchange identifier of records, paths and the exchange_name filter. */
  exchangeIds: readonly string[];
  /** scraped_time from microseconds since the epoch. */
  formatScrapedTime: (micros: number) => string;
  /**
   * By fee_type code, what a record with no trade type carries. No filter value matches it
   * (the 2026 edition lists `not_applicable` among record values only), so it stays one code.
   */
  noTradeType: readonly (string | null)[];
}

export const INTERFACE_VOCABULARY: Vocabulary = {
  shape: 'interface',
  enums: {
    fee_type: FEE_TYPE_SPELLINGS,
    fee_category: FEE_CATEGORY_SPELLINGS,
    fee_action: FEE_ACTIONS,
    fee_participant: FEE_PARTICIPANTS,
    fee_symbol_classification: FEE_SYMBOL_CLASSIFICATIONS,
    fee_symbol_type: FEE_SYMBOL_TYPES,
    fee_trade_type: FEE_TRADE_TYPES,
  },
  exchangeIds: VENUES.map((venue) => venue.id),
  formatScrapedTime: formatOffsetMicros,
  noTradeType: FEE_TYPE_SPELLINGS.map(() => null),
};

type SnakeCaseOf<Spellings extends readonly string[]> = Readonly<Record<Spellings[number], string>>;

/**
 * The 2026 edition's snake_case value of each interface spelling (shared/service-2026.md, "Filter
 * values"). The interface's second spelling of the liquidity category, `Fees And Rebates`, is
 * the sandbox's `general_provisions`: a pure map of codes keeps a 2026 record one function of
 * its interface twin, and filtering and sorting on codes alike in both shapes.
 */
const SNAKE_CASE = {
  fee_type: { Equity: 'equity', Option: 'option', OPTION: 'option' } satisfies SnakeCaseOf<typeof FEE_TYPE_SPELLINGS>,
  fee_category: {
    'Fee And Rebates': 'fees_and_rebates',
    'Legal Regulatory Fees': 'legal_regulatory_fee',
    'Market Data Fees': 'market_data_fees',
    'Participant Fee': 'participant_fee',
    'Port Fees And Other Services': 'port_fees_and_other_services',
    'Fees And Rebates': 'general_provisions',
  } satisfies SnakeCaseOf<typeof FEE_CATEGORY_SPELLINGS>,
  fee_action: { Make: 'make', Take: 'take', Open: 'open', Routed: 'routed', Other: 'other' } satisfies SnakeCaseOf<typeof FEE_ACTIONS>,
  fee_participant: {
    Customer: 'customer',
    Firm: 'firm',
    'Broker Dealer': 'broker_dealer',
    'Market Maker': 'market_maker',
    'Away Market Maker': 'away_market_maker',
    Professional: 'professional',
    Other: 'other',
    All: 'all',
  } satisfies SnakeCaseOf<typeof FEE_PARTICIPANTS>,
  fee_symbol_classification: {
    ETF: 'etf', ETN: 'etn', Equity: 'equity_class', Index: 'index', 'N/A': 'not_applicable', All: 'all',
  } satisfies SnakeCaseOf<typeof FEE_SYMBOL_CLASSIFICATIONS>,
  fee_symbol_type: { Penny: 'penny', 'Non Penny': 'non_penny', 'N/A': 'not_applicable', Both: 'both' } satisfies SnakeCaseOf<typeof FEE_SYMBOL_TYPES>,
  fee_trade_type: {
    'Index Options': 'index_options',
    'Multiply Traded Options': 'multiply_traded_options',
    'Simple Order': 'simple_order',
    'Complex Order': 'complex_order',
  } satisfies SnakeCaseOf<typeof FEE_TRADE_TYPES>,
} as const;

function snakeCase(name: EnumFilterName): readonly string[] {
  const map = SNAKE_CASE[name] as Readonly<Record<string, string>>;
  return INTERFACE_VOCABULARY.enums[name].map((spelling) => map[spelling]!);
}

export const VOCABULARY_2026: Vocabulary = {
  shape: '2026',
  enums: {
    fee_type: snakeCase('fee_type'),
    fee_category: snakeCase('fee_category'),
    fee_action: snakeCase('fee_action'),
    fee_participant: snakeCase('fee_participant'),
    fee_symbol_classification: snakeCase('fee_symbol_classification'),
    fee_symbol_type: snakeCase('fee_symbol_type'),
    fee_trade_type: snakeCase('fee_trade_type'),
  },
  // The 2026 edition's identifiers are lower-case snake: NYSE is nyse, NASDAQ_PHLX is nasdaq_phlx.
  exchangeIds: VENUES.map((venue) => venue.id.toLowerCase()),
  formatScrapedTime: formatZuluMicros,
  // An equity schedule's line has no options trade type: the edition's records say not_applicable.
  noTradeType: FEE_TYPE_SPELLINGS.map((spelling) => (spelling === 'Equity' ? 'not_applicable' : null)),
};

export function vocabularyOf(shape: ServiceShape): Vocabulary {
  return shape === '2026' ? VOCABULARY_2026 : INTERFACE_VOCABULARY;
}

/** A venue's index by its identifier in this vocabulary (matched exactly); undefined when none. */
export function venueIndexIn(vocabulary: Vocabulary, id: string): number | undefined {
  const index = vocabulary.exchangeIds.indexOf(id);
  return index < 0 ? undefined : index;
}

/** The fields of a record that the dataset holds as codes, spelt in one vocabulary. */
export interface CodedFields {
  exchange_name: string;
  scraped_time: string;
  fee_type: string;
  fee_category: string;
  fee_action: string;
  fee_participant: string;
  fee_symbol_classification: string;
  fee_symbol_type: string;
  fee_trade_type: string | null;
}

/** Record `index`'s coded fields in `vocabulary`'s spellings. */
export function codedFields(dataset: ResultsDataset, index: number, vocabulary: Vocabulary): CodedFields {
  const v = dataset.recordVersion[index]!;
  const { enums } = vocabulary;
  const tradeType = dataset.tradeType[index]!;
  const feeType = dataset.versionFeeType[v]!;
  return {
    exchange_name: vocabulary.exchangeIds[dataset.versionVenue[v]!]!,
    scraped_time: vocabulary.formatScrapedTime(dataset.versionScrapedMicros[v]!),
    fee_type: enums.fee_type[feeType]!,
    fee_category: enums.fee_category[dataset.category[index]!]!,
    fee_action: enums.fee_action[dataset.action[index]!]!,
    fee_participant: enums.fee_participant[dataset.participant[index]!]!,
    fee_symbol_classification: enums.fee_symbol_classification[dataset.symbolClassification[index]!]!,
    fee_symbol_type: enums.fee_symbol_type[dataset.symbolType[index]!]!,
    fee_trade_type: tradeType === NULL_CODE ? (vocabulary.noTradeType[feeType] ?? null) : enums.fee_trade_type[tradeType]!,
  };
}
