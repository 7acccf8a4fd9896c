import { ENUM_FILTER_VALUES } from '../api/filters.js';
import { isLicensedFor, licenceOf } from './keys.js';
import { jsonResponse, RESULTS_UNAUTHORIZED_BODY, type SandboxResponse } from './responses.js';
import {
  FEE_CATEGORY_SPELLINGS,
  FEE_TYPE_SPELLINGS,
  NULL_CODE,
  type ResultsDataset,
} from './results-dataset.js';
import { venueAt, venueIndexOf, VENUES } from './venues.js';

/** The filter value of a spelling a record may carry (`OPTION`, `Fees And Rebates`). */
const FILTER_SPELLING: Readonly<Record<string, string>> = { OPTION: 'Option', 'Fees And Rebates': 'Fee And Rebates' };

/** Per-record code columns of the dataset, and the filter values their codes stand for, by the response's key. */
const RECORD_FACETS = [
  ['fee_categories', 'category', FEE_CATEGORY_SPELLINGS],
  ['fee_actions', 'action', ENUM_FILTER_VALUES.fee_action],
  ['fee_participants', 'participant', ENUM_FILTER_VALUES.fee_participant],
  ['fee_symbol_classifications', 'symbolClassification', ENUM_FILTER_VALUES.fee_symbol_classification],
  ['fee_symbol_types', 'symbolType', ENUM_FILTER_VALUES.fee_symbol_type],
  ['fee_trade_types', 'tradeType', ENUM_FILTER_VALUES.fee_trade_type],
] as const;

/** What the filter values of a set of codes are, in the spelling list's order, each once. */
function valuesOf(seen: Uint8Array, spellings: readonly string[]): string[] {
  const values = spellings.filter((_, code) => seen[code] === 1).map((spelling) => FILTER_SPELLING[spelling] ?? spelling);
  return [...new Set(values)];
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

/**
 * GET /api/v1/fee-schedule-results/filters, the service's "Get Available Filters" as
 * shared/cli-contract.md gives it: the values of each filterable field among the records the
 * key may see, narrowed by repeated `exchange_name`. Unknown or unlicensed exchanges add nothing.
 */
export function serveAvailableFilters(dataset: ResultsDataset, params: URLSearchParams, key: string | undefined, startedAt: number): SandboxResponse {
  const licence = licenceOf(key);
  if (licence === undefined) return jsonResponse(401, RESULTS_UNAUTHORIZED_BODY);
  const asked = params.getAll('exchange_name');
  const askedVenues = new Set(asked.map((id) => venueIndexOf(id)).filter((index) => index !== undefined));
  const visible = (venueIndex: number): boolean => isLicensedFor(licence, venueIndex) && (asked.length === 0 || askedVenues.has(venueIndex));

  const venues = new Uint8Array(VENUES.length);
  const feeTypes = new Uint8Array(FEE_TYPE_SPELLINGS.length);
  const facets = RECORD_FACETS.map(() => new Uint8Array(NULL_CODE + 1));
  forEachLiveVersion(dataset, visible, (version, venueIndex, start, end) => {
    venues[venueIndex] = 1;
    feeTypes[dataset.versionFeeType[version] as number] = 1;
    RECORD_FACETS.forEach(([, column], facet) => {
      const codes = dataset[column];
      const seen = facets[facet] as Uint8Array;
      for (let record = start; record < end; record++) seen[codes[record] as number] = 1;
    });
  });

  const exchanges = VENUES.map((_, index) => index).filter((index) => venues[index] === 1).map(venueAt);
  const data: Record<string, string[]> = {
    exchange_names: exchanges.map((venue) => venue.id),
    supplier_names: exchanges.map((venue) => venue.name),
    fee_types: valuesOf(feeTypes, FEE_TYPE_SPELLINGS),
  };
  RECORD_FACETS.forEach(([name, , spellings], facet) => {
    data[name] = valuesOf(facets[facet] as Uint8Array, spellings);
  });
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
 * with records the key may see, its fee types in the filters' spelling. The key goes in the
 * results endpoint's header, as that reference sends it on every endpoint.
 */
export function serveExchangeList(dataset: ResultsDataset, key: string | undefined, startedAt: number): SandboxResponse {
  const licence = licenceOf(key);
  if (licence === undefined) return jsonResponse(401, RESULTS_UNAUTHORIZED_BODY);
  const feeTypes = VENUES.map(() => new Uint8Array(FEE_TYPE_SPELLINGS.length));
  const records = VENUES.map(() => 0);
  forEachLiveVersion(dataset, (venueIndex) => isLicensedFor(licence, venueIndex), (version, venueIndex, start, end) => {
    (feeTypes[venueIndex] as Uint8Array)[dataset.versionFeeType[version] as number] = 1;
    records[venueIndex] = (records[venueIndex] as number) + end - start;
  });
  const data = VENUES.flatMap((venue, index) =>
    records[index] === 0
      ? []
      : [{ name: venue.id, display_name: venue.name, fee_types: valuesOf(feeTypes[index] as Uint8Array, FEE_TYPE_SPELLINGS), record_count: records[index] }],
  );
  return jsonResponse(200, { data, meta: { record_count: data.length, query_time_ms: Math.round(performance.now() - startedAt) } });
}
