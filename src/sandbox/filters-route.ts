import { isLicensedFor, type Licence, licenceOf } from './keys.js';
import { jsonResponse, queryTimeMs, RESULTS_UNAUTHORIZED_BODY, type SandboxResponse } from './responses.js';
import { FEE_TYPE_SPELLINGS, NULL_CODE, type ResultsDataset } from './results-dataset.js';
import { venueAt, VENUES } from './venues.js';
import { INTERFACE_VOCABULARY, venueIndexIn, type Vocabulary } from './vocabulary.js';

/** The filter value of a spelling a record may carry (`OPTION`, `Fees And Rebates`). */
const FILTER_SPELLING: Readonly<Record<string, string>> = { OPTION: 'Option', 'Fees And Rebates': 'Fee And Rebates' };

/** Per-record code columns of the dataset, by the filters response's key. */
const RECORD_FACETS = [
  ['fee_categories', 'category', 'fee_category'],
  ['fee_actions', 'action', 'fee_action'],
  ['fee_participants', 'participant', 'fee_participant'],
  ['fee_symbol_classifications', 'symbolClassification', 'fee_symbol_classification'],
  ['fee_symbol_types', 'symbolType', 'fee_symbol_type'],
  ['fee_trade_types', 'tradeType', 'fee_trade_type'],
] as const;

export type FacetName = 'fee_types' | (typeof RECORD_FACETS)[number][0];

/** What the records of some versions hold: the codes seen of each field, and how many records. */
export interface Facets {
  /** 1 for each venue index seen. */
  venues: Uint8Array;
  /** 1 for each code seen, by fee_type and by each record field. */
  codes: Record<FacetName, Uint8Array>;
  records: number;
  /** The first and last scraped_time, in microseconds since the epoch; NaN when no records. */
  firstScrapedMicros: number;
  lastScrapedMicros: number;
}

/** The values of a set of codes in a vocabulary's spellings, in its list's order, each once. */
function valuesOf(seen: Uint8Array, spellings: readonly string[]): string[] {
  const values = spellings.filter((_, code) => seen[code] === 1).map((spelling) => FILTER_SPELLING[spelling] ?? spelling);
  return [...new Set(values)];
}

/** Each facet's values in a vocabulary's spellings, by the filters response's key. */
export function facetValues(facets: Facets, vocabulary: Vocabulary): Record<FacetName, string[]> {
  const values = { fee_types: valuesOf(facets.codes.fee_types, vocabulary.enums.fee_type) } as Record<FacetName, string[]>;
  for (const [name, , field] of RECORD_FACETS) values[name] = valuesOf(facets.codes[name], vocabulary.enums[field]);
  return values;
}

/** Each version with records, not withdrawn, of a venue the key may see: its venue, first record and end. */
function forEachLiveVersion(
  dataset: ResultsDataset,
  visible: (venueIndex: number) => boolean,
  visit: (version: number, venueIndex: number, start: number, end: number) => void,
): void {
  for (let version = 0; version < dataset.versionCount; version++) {
    const venueIndex = dataset.versionVenue[version] as number;
    const start = dataset.versionStart[version] as number;
    const end = dataset.versionStart[version + 1] as number;
    if (start !== end && dataset.versionWithdrawn[version] !== 1 && visible(venueIndex)) visit(version, venueIndex, start, end);
  }
}

/** The facets of the live records of the visible venues. */
export function facetsOf(dataset: ResultsDataset, visible: (venueIndex: number) => boolean): Facets {
  const codes = { fee_types: new Uint8Array(FEE_TYPE_SPELLINGS.length) } as Record<FacetName, Uint8Array>;
  for (const [name] of RECORD_FACETS) codes[name] = new Uint8Array(NULL_CODE + 1);
  const facets: Facets = { venues: new Uint8Array(VENUES.length), codes, records: 0, firstScrapedMicros: Number.NaN, lastScrapedMicros: Number.NaN };
  forEachLiveVersion(dataset, visible, (version, venueIndex, start, end) => {
    facets.venues[venueIndex] = 1;
    codes.fee_types[dataset.versionFeeType[version] as number] = 1;
    for (const [name, column] of RECORD_FACETS) {
      const recordCodes = dataset[column];
      const seen = codes[name];
      for (let record = start; record < end; record++) seen[recordCodes[record] as number] = 1;
    }
    facets.records += end - start;
    const scraped = dataset.versionScrapedMicros[version] as number;
    if (!(scraped >= facets.firstScrapedMicros)) facets.firstScrapedMicros = scraped;
    if (!(scraped <= facets.lastScrapedMicros)) facets.lastScrapedMicros = scraped;
  });
  return facets;
}

/**
 * The venues a filters call sees: those the key may see, narrowed by repeated `exchange_name`
 * (in the vocabulary's identifiers). Unknown or unlicensed exchanges add nothing.
 */
export function visibleForFilters(licence: Licence, params: URLSearchParams, vocabulary: Vocabulary): (venueIndex: number) => boolean {
  const asked = params.getAll('exchange_name');
  const askedVenues = new Set(asked.map((id) => venueIndexIn(vocabulary, id)).filter((index) => index !== undefined));
  return (venueIndex) => isLicensedFor(licence, venueIndex) && (asked.length === 0 || askedVenues.has(venueIndex));
}

/**
 * GET /api/v1/fee-schedule-results/filters, the service's "Get Available Filters" as
 * shared/cli-contract.md gives it: the values of each filterable field among the records the
 * key may see, narrowed by repeated `exchange_name`.
 */
export function serveAvailableFilters(dataset: ResultsDataset, params: URLSearchParams, key: string | undefined, startedAt: number): SandboxResponse {
  const licence = licenceOf(key);
  if (licence === undefined) return jsonResponse(401, RESULTS_UNAUTHORIZED_BODY);
  const facets = facetsOf(dataset, visibleForFilters(licence, params, INTERFACE_VOCABULARY));
  const exchanges = VENUES.map((_, index) => index).filter((index) => facets.venues[index] === 1).map(venueAt);
  const data = {
    exchange_names: exchanges.map((venue) => venue.id),
    supplier_names: exchanges.map((venue) => venue.name),
    ...facetValues(facets, INTERFACE_VOCABULARY),
  };
  return jsonResponse(200, {
    success: true,
    message: 'Available filters retrieved successfully.',
    data,
    query_time: Number(((performance.now() - startedAt) / 1000).toFixed(6)),
  });
}

/**
 * GET /api/v1/exchanges/, the list of exchanges of the service's 2026 reference
 * (shared/service-2026.md): `{name, display_name, fee_types, record_count}` for each exchange
 * with records the key may see, in the vocabulary's spellings. The key goes in the results
 * endpoint's header, as that reference sends it on every endpoint; the caller checked it.
 */
export function serveExchangeList(dataset: ResultsDataset, licence: Licence, vocabulary: Vocabulary, startedAt: number): SandboxResponse {
  const feeTypes = VENUES.map(() => new Uint8Array(FEE_TYPE_SPELLINGS.length));
  const records = VENUES.map(() => 0);
  forEachLiveVersion(dataset, (venueIndex) => isLicensedFor(licence, venueIndex), (version, venueIndex, start, end) => {
    (feeTypes[venueIndex] as Uint8Array)[dataset.versionFeeType[version] as number] = 1;
    records[venueIndex] = (records[venueIndex] as number) + end - start;
  });
  const data = VENUES.flatMap((venue, index) =>
    records[index] === 0
      ? []
      : [{
          name: vocabulary.exchangeIds[index]!,
          display_name: venue.name,
          fee_types: valuesOf(feeTypes[index] as Uint8Array, vocabulary.enums.fee_type),
          record_count: records[index],
        }],
  );
  return jsonResponse(200, { data, meta: { record_count: data.length, query_time_ms: queryTimeMs(startedAt) } });
}
