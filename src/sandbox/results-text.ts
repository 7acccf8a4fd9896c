/**
 * Text for the free-form fields of fee schedule results: plausible wording, plus values chosen
 * to break naive tools (CSV writers, terminals, line-based parsers).
 */

/**
 * Every record whose index is AWKWARD_STRIDE * k + j (j < AWKWARD_NOTES.length) carries
 * AWKWARD_NOTES[j] in fee_notes, so any few hundred consecutive records hold them all.
 */
export const AWKWARD_STRIDE = 40;
export const AWKWARD_NOTES: readonly string[] = [
  'Applies to Tape A, Tape B and Tape C securities, excluding auctions',
  'Known as the "Step-Up" tier; see "Market Quality" program',
  'First line of the note\nsecond line after a line feed',
  'Rebate applies to displayed orders\r\nonly, per the Windows-style notice',
  'Tier\tRate\tCap',
  'Gebühr für Aufträge – Zürich, São Paulo, Malmö, Łódź',
  '🚀 Promotional pricing 📈 until further notice 👍🏽',
  'ＦＵＬＬＷＩＤＴＨ　ｎｏｔｅ：　１２３，４５６',
  '',
  '"Quoted, with a comma"\r\nand a "second" line',
  '=SUM(A1:A9) is not a formula here',
  'Back\\slash and trailing spaces   ',
  '東京証券取引所の手数料（税込）',
];

/** Every record whose index is LONG_NOTE_STRIDE * k + LONG_NOTE_OFFSET carries a long note. */
export const LONG_NOTE_STRIDE = 97;
export const LONG_NOTE_OFFSET = 23;

const LONG_NOTE_PARAGRAPHS: readonly string[] = [
  'Members that add displayed liquidity in securities priced at or above $1.00 receive the rebate shown, provided that their average daily added volume, calculated monthly, meets the threshold of the tier.',
  'Orders that execute in the opening or closing auction are charged the auction fee rather than the continuous-book rate; orders routed away are charged the routing fee plus any fee of the destination venue, "as billed".',
  'Volume of affiliated members may be aggregated on request, subject to the Exchange’s approval; a member that qualifies for more than one tier receives the most favourable rate, not the sum of the rates.',
  'Where a day is an early close, the thresholds are pro-rated; days on which the Exchange’s systems were impaired are excluded from both the numerator and the denominator of every percentage.',
  'Rates are shown in USD per share executed unless stated otherwise, e.g. $0.0030, ($0.0020) for a rebate, or 0.30% of the dollar value for securities priced below $1.00.',
];

/** A note of a few kilobytes, built from the paragraphs in an order set by `variant`. */
export function longNote(variant: number): string {
  const parts: string[] = [];
  const paragraphs = LONG_NOTE_PARAGRAPHS.length;
  const repeats = 12 + (variant % 24);
  for (let i = 0; i < repeats; i++) {
    parts.push(`${i + 1}. ${LONG_NOTE_PARAGRAPHS[(variant + i * 3) % paragraphs]!}`);
  }
  return parts.join('\n\n');
}

export const NOTES: readonly string[] = [
  'Rate applies per share executed',
  'Subject to monthly minimum of 1,000,000 shares ADV',
  'Fee waived for the first month after a new port is connected',
  'Capped at $75,000 per month per MPID',
  'See the Exchange’s price list for the full terms',
  'Includes the Section 31 pass-through',
  'Applies to orders with a size of at least one round lot',
];

export const ACTION_DETAILS: readonly string[] = [
  'Adding displayed liquidity',
  'Adding non-displayed liquidity',
  'Removing liquidity',
  'Routed to an away market',
  'Executions in the opening cross',
  'Executions in the closing cross',
  'Midpoint peg, adding',
];

export const BASES: readonly string[] = ['Per share', 'Per contract', 'Per side', 'Per month', 'Per port per month', 'Per order', 'Per million notional'];

export const REFERENCES: readonly string[] = [
  'Section 2(a)',
  'Fee Schedule §III.A, footnote 4',
  'Rule 7018(a)(1)',
  'Price List, "Equities", p. 12',
  'Schedule of Fees, Part B',
];

export const PARTICIPANT_DETAILS: readonly string[] = [
  'Members with a Market Maker registration in the class',
  'Non-member broker-dealers',
  'Orders for a Professional Customer account',
  'Retail Member Organizations, retail orders',
  'Priority Customer',
];

export const MONTHLY_VOLUMES: readonly string[] = [
  '≥ 0.30% TCV',
  '> 1,000,000 contracts ADV',
  '0.10% – 0.25% of TCV',
  'Tier 3',
  '≥ 50,000,000 shares ADV',
];

export const VOLUME_CRITERIA: readonly string[] = [
  'Average daily added volume as a percentage of total consolidated volume',
  'Customer volume in multiply listed options, monthly',
  'Total volume across all affiliated MPIDs',
  'Displayed adding volume, excluding auctions',
];

export const SYMBOLS: readonly string[] = ['SPY', 'QQQ', 'AAPL', 'SPX', 'VIX', 'AAPL, MSFT, NVDA', 'BRK.B', ''];

export const EXCLUDED_SYMBOLS: readonly string[] = ['SPX, VIX, RUT', 'NDX', 'XSP', 'Mini options (SPY7, AAPL7)'];

export const CONDITIONS: readonly string[] = [
  'Order must rest on the book for at least 1 second',
  'Applies only if the member qualifies for Tier 2 or higher',
  'Only during regular trading hours',
  'Both sides must be from different MPIDs',
];

export const EXCLUSIONS: readonly string[] = [
  'Excludes auction executions',
  'Excludes orders with a Retail designation',
  'Excludes Complex Orders',
  'Excludes securities priced below $1.00',
];

export const EXTRA_INFO: readonly string[] = ['', 'Effective with the trade date', 'Billed monthly in arrears', 'ⓘ Updated after a rule filing', 'n/a'];

/** fee_charge_type by fee_category index (the order of the service document's table). */
export const CHARGE_TYPES_BY_CATEGORY: readonly (readonly string[])[] = [
  ['Per Share', 'Per Contract', 'Per Share', 'Percent of Value'],
  ['Per Share', 'Per Transaction', 'Per Contract'],
  ['Monthly', 'Per User', 'Per Device'],
  ['Monthly', 'Annual', 'One-Time'],
  ['Per Port', 'Monthly', 'Per Connection'],
];

/**
 * The 2026 shape's citations (include_source, include_footnotes, include_definitions): a
 * version's document title, made from the venue's name and fee type, and each record's
 * footnotes and definitions, some with quotes, commas, line breaks and non-ASCII text.
 */
export const SOURCE_TITLES: readonly ((venue: string, feeType: string) => string)[] = [
  (venue, feeType) => `${venue} ${feeType} Fee Schedule.pdf`,
  (venue, feeType) => `${venue} Price List, "${feeType}".pdf`,
  (venue) => `${venue} Schedule of Fees – Rulebook Extract.pdf`,
  (venue, feeType) => `${feeType} Fees & Rebates (${venue}).pdf`,
];

export const FOOTNOTES: readonly string[] = [
  'Applies only to orders entered during Regular Trading Hours.',
  'Rebates are paid monthly, in arrears, on the member’s "net" volume.',
  'See Endnote 12 for QCC transactions, excluding Complex Orders, Floor Broker orders, and Customer-to-Customer trades.',
  'Tier thresholds are measured as a percentage of TCV\nover the calendar month.',
  'Gebühren gelten je Auftrag; Abrechnung in EUR – siehe Anhang Ⅱ.',
  '東京証券取引所の規則に基づく。',
  'A fee of $0.00 means "no charge", not "not applicable".',
];

export const DEFINITIONS: readonly { term: string; text: string }[] = [
  { term: 'ADV', text: 'Average daily volume, calculated monthly.' },
  { term: 'TCV', text: 'Total consolidated volume, as reported by the SIPs.' },
  { term: 'Customer', text: 'A person or entity that is not a broker or dealer in securities, nor a "Professional".' },
  { term: 'QCC', text: 'Qualified Contingent Cross order, with at least 1,000 contracts.' },
  { term: 'Mid-Point Peg', text: 'An order priced at the midpoint of the NBBO, re-priced as it moves.' },
  { term: 'Börsentag', text: 'Ein Handelstag an der Börse, ohne Feiertage.' },
];
