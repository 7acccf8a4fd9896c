/** The trading venues the sandbox serves: real identifiers and names, a few facts about each. */

export type Region = 'us' | 'ca' | 'uk' | 'eu' | 'ch' | 'jp' | 'hk' | 'sg' | 'au' | 'in' | 'kr' | 'br' | 'za';

/** The fee_type values of the service document. */
export type FeeTypeName = 'Equity' | 'Option';

export interface Venue {
  /** The exchange identifier used in paths and in the exchange_name filter. Matched exactly. */
  id: string;
  /** The exchange's full name: what supplier_name filters and sorts by. */
  name: string;
  region: Region;
  /** The fee schedule documents the venue publishes, each a (venue, fee_type) group of results. */
  feeTypes: readonly FeeTypeName[];
  /** Inverted (taker-maker) venues pay takers and charge makers. */
  inverted?: boolean;
}

const EQUITY = ['Equity'] as const;
const OPTION = ['Option'] as const;
const BOTH = ['Equity', 'Option'] as const;

export const VENUES: readonly Venue[] = [
  // NYSE also publishes the options schedules of its group, as the CLI contract's example expects.
  { id: 'NYSE', name: 'New York Stock Exchange', region: 'us', feeTypes: BOTH },
  { id: 'NYSE_ARCA', name: 'NYSE Arca', region: 'us', feeTypes: BOTH },
  { id: 'NYSE_AMERICAN', name: 'NYSE American', region: 'us', feeTypes: BOTH },
  { id: 'NYSE_NATIONAL', name: 'NYSE National', region: 'us', feeTypes: EQUITY, inverted: true },
  { id: 'NYSE_CHICAGO', name: 'NYSE Chicago', region: 'us', feeTypes: EQUITY },
  { id: 'NASDAQ', name: 'The Nasdaq Stock Market', region: 'us', feeTypes: BOTH },
  { id: 'NASDAQ_BX', name: 'Nasdaq BX', region: 'us', feeTypes: BOTH, inverted: true },
  { id: 'NASDAQ_PSX', name: 'Nasdaq PSX', region: 'us', feeTypes: EQUITY },
  { id: 'NASDAQ_PHLX', name: 'Nasdaq PHLX', region: 'us', feeTypes: OPTION },
  { id: 'NASDAQ_ISE', name: 'Nasdaq ISE', region: 'us', feeTypes: OPTION },
  { id: 'NASDAQ_GEMX', name: 'Nasdaq GEMX', region: 'us', feeTypes: OPTION },
  { id: 'NASDAQ_MRX', name: 'Nasdaq MRX', region: 'us', feeTypes: OPTION },
  { id: 'CBOE', name: 'Cboe Options Exchange', region: 'us', feeTypes: OPTION },
  { id: 'CBOE_C2', name: 'Cboe C2 Options Exchange', region: 'us', feeTypes: OPTION },
  { id: 'CBOE_BZX', name: 'Cboe BZX Exchange', region: 'us', feeTypes: BOTH },
  { id: 'CBOE_BYX', name: 'Cboe BYX Exchange', region: 'us', feeTypes: EQUITY, inverted: true },
  { id: 'CBOE_EDGX', name: 'Cboe EDGX Exchange', region: 'us', feeTypes: BOTH },
  { id: 'CBOE_EDGA', name: 'Cboe EDGA Exchange', region: 'us', feeTypes: EQUITY, inverted: true },
  { id: 'IEX', name: 'Investors Exchange', region: 'us', feeTypes: EQUITY },
  { id: 'MEMX', name: 'Members Exchange', region: 'us', feeTypes: BOTH },
  { id: 'MIAX', name: 'Miami International Securities Exchange', region: 'us', feeTypes: OPTION },
  { id: 'MIAX_PEARL', name: 'MIAX Pearl', region: 'us', feeTypes: BOTH },
  { id: 'MIAX_EMERALD', name: 'MIAX Emerald', region: 'us', feeTypes: OPTION },
  { id: 'MIAX_SAPPHIRE', name: 'MIAX Sapphire', region: 'us', feeTypes: OPTION },
  { id: 'BOX', name: 'BOX Options Exchange', region: 'us', feeTypes: OPTION },
  { id: 'LTSE', name: 'Long-Term Stock Exchange', region: 'us', feeTypes: EQUITY },
  { id: '24X', name: '24X National Exchange', region: 'us', feeTypes: EQUITY },
  { id: 'TSX', name: 'Toronto Stock Exchange', region: 'ca', feeTypes: EQUITY },
  { id: 'LSE', name: 'London Stock Exchange', region: 'uk', feeTypes: EQUITY },
  { id: 'CBOE_EUROPE', name: 'Cboe Europe Equities', region: 'uk', feeTypes: EQUITY },
  { id: 'TURQUOISE', name: 'Turquoise', region: 'uk', feeTypes: EQUITY },
  { id: 'AQUIS', name: 'Aquis Exchange', region: 'uk', feeTypes: EQUITY },
  { id: 'XETRA', name: 'Deutsche Börse Xetra', region: 'eu', feeTypes: EQUITY },
  { id: 'EUREX', name: 'Eurex Exchange', region: 'eu', feeTypes: OPTION },
  { id: 'EURONEXT_PARIS', name: 'Euronext Paris', region: 'eu', feeTypes: EQUITY },
  { id: 'EURONEXT_AMSTERDAM', name: 'Euronext Amsterdam', region: 'eu', feeTypes: BOTH },
  { id: 'BME', name: 'Bolsa de Madrid', region: 'eu', feeTypes: EQUITY },
  { id: 'BORSA_ITALIANA', name: 'Borsa Italiana', region: 'eu', feeTypes: EQUITY },
  { id: 'NASDAQ_STOCKHOLM', name: 'Nasdaq Stockholm', region: 'eu', feeTypes: BOTH },
  { id: 'SIX', name: 'SIX Swiss Exchange', region: 'ch', feeTypes: EQUITY },
  { id: 'TSE', name: 'Tokyo Stock Exchange', region: 'jp', feeTypes: EQUITY },
  { id: 'HKEX', name: 'Hong Kong Exchanges and Clearing', region: 'hk', feeTypes: BOTH },
  { id: 'SGX', name: 'Singapore Exchange', region: 'sg', feeTypes: EQUITY },
  { id: 'ASX', name: 'Australian Securities Exchange', region: 'au', feeTypes: BOTH },
  { id: 'NSE', name: 'National Stock Exchange of India', region: 'in', feeTypes: BOTH },
  { id: 'KRX', name: 'Korea Exchange', region: 'kr', feeTypes: BOTH },
  { id: 'B3', name: 'B3 – Brasil Bolsa Balcão', region: 'br', feeTypes: BOTH },
  { id: 'JSE', name: 'Johannesburg Stock Exchange', region: 'za', feeTypes: EQUITY },
];

const VENUE_INDEX = new Map(VENUES.map((venue, index) => [venue.id, index]));

/** The venue's position in VENUES, by exact identifier; undefined when there is none. */
export function venueIndexOf(id: string): number | undefined {
  return VENUE_INDEX.get(id);
}

/** The venue at a position of VENUES; a RangeError when there is none. */
export function venueAt(index: number): Venue {
  const venue = VENUES[index];
  if (!venue) throw new RangeError(`no venue at ${index}`);
  return venue;
}
