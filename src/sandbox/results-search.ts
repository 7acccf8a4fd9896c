import type { EnumFilterName, OrderBy } from '../api/filters.js';
import { NULL_CODE, type ResultsDataset } from './results-dataset.js';
import type { ResultsSearch } from './results-query.js';
import type { Vocabulary } from './vocabulary.js';

/** How many filtered match lists to keep: a client walking pages repeats one query. */
const MATCH_CACHE_SIZE = 16;

export interface ResultsSlice {
  /** Record indexes of the page, in the requested order. */
  indexes: number[];
  totalRecords: number;
}

/** Ranks of `spellings` in code-unit (C collation) order. */
function ranksOf(spellings: readonly string[]): Uint8Array {
  const sorted = [...spellings].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Uint8Array.from(spellings, (spelling) => sorted.indexOf(spelling));
}

/** Ranks of the values a shape sorts by text, by the code the dataset stores. */
interface SortRanks {
  /** supplier_name orders by what records carry: exchange_name, the exchange identifier (docs/sandbox.md). */
  venue: Uint8Array;
  feeType: Uint8Array;
  category: Uint8Array;
}

function sortRanks(vocabulary: Vocabulary): SortRanks {
  return {
    venue: ranksOf(vocabulary.exchangeIds),
    feeType: ranksOf(vocabulary.enums.fee_type),
    category: ranksOf(vocabulary.enums.fee_category),
  };
}

/**
 * Filters, sorts and pages the dataset. Every order is total: ties on the sort field are
 * broken by created_on, then by id, in the same direction (only the records of an added
 * version share a created_on), so pages never overlap. Descending order is ascending order
 * read backwards. Withdrawn records are in no order.
 */
export class ResultsIndex {
  private readonly ascending = new Map<OrderBy, Uint32Array>();
  private readonly matches = new Map<string, Uint32Array>();
  /** The dataset's revision the caches were computed for. */
  private revision: number;
  private readonly ranks: SortRanks;

  /** `vocabulary`: the spellings that text orders (supplier_name, fee_type, fee_category) compare. */
  constructor(
    private readonly dataset: ResultsDataset,
    vocabulary: Vocabulary,
  ) {
    this.revision = dataset.revision;
    this.ranks = sortRanks(vocabulary);
  }

  slice(search: ResultsSearch): ResultsSlice {
    if (this.revision !== this.dataset.revision) {
      this.ascending.clear();
      this.matches.clear();
      this.revision = this.dataset.revision;
    }
    const ordered = this.matching(search);
    const total = ordered.length;
    const first = search.pageNumber * search.pageSize;
    const end = Math.min(first + search.pageSize, total);
    const indexes: number[] = [];
    for (let k = first; k < end; k++) {
      indexes.push(ordered[search.orderDir === 'asc' ? k : total - 1 - k]!);
    }
    return { indexes, totalRecords: total };
  }

  /** The matching record indexes in ascending order of search.orderBy. */
  private matching(search: ResultsSearch): Uint32Array {
    const order = this.ascendingOrder(search.orderBy);
    if (isUnfiltered(search)) return order;
    const key = `${search.orderBy}|${search.filterKey}`;
    const cached = this.matches.get(key);
    if (cached) {
      this.matches.delete(key);
      this.matches.set(key, cached);
      return cached;
    }
    const found = this.scan(search, order);
    this.matches.set(key, found);
    if (this.matches.size > MATCH_CACHE_SIZE) this.matches.delete(this.matches.keys().next().value!);
    return found;
  }

  private scan(search: ResultsSearch, order: Uint32Array): Uint32Array {
    const data = this.dataset;
    const versionOk = new Uint8Array(data.versionCount);
    const feeTypes = search.enums.fee_type;
    for (let v = 0; v < data.versionCount; v++) {
      const day = data.versionScrapedDay[v]!;
      versionOk[v] = Number(
        (search.venues === undefined || search.venues.has(data.versionVenue[v]!)) &&
          (feeTypes === undefined || feeTypes.has(data.versionFeeType[v]!)) &&
          (search.startDay === undefined || day >= search.startDay) &&
          (search.endDay === undefined || day <= search.endDay) &&
          (!search.latestOnly || data.versionIsLatest[v] === 1),
      );
    }
    const columns: [Uint8Array, Uint8Array][] = [];
    const addColumn = (name: EnumFilterName, column: Uint8Array) => {
      const codes = search.enums[name];
      if (codes === undefined) return;
      const allowed = new Uint8Array(NULL_CODE + 1);
      for (const code of codes) allowed[code] = 1;
      columns.push([column, allowed]);
    };
    addColumn('fee_category', data.category);
    addColumn('fee_action', data.action);
    addColumn('fee_participant', data.participant);
    addColumn('fee_symbol_classification', data.symbolClassification);
    addColumn('fee_symbol_type', data.symbolType);
    addColumn('fee_trade_type', data.tradeType);

    const found = new Uint32Array(order.length);
    let count = 0;
    next: for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (versionOk[data.recordVersion[i]!] === 0) continue;
      for (const [column, allowed] of columns) {
        if (allowed[column[i]!] === 0) continue next;
      }
      found[count++] = i;
    }
    return found.slice(0, count);
  }

  private ascendingOrder(orderBy: OrderBy): Uint32Array {
    let order = this.ascending.get(orderBy);
    if (order === undefined) {
      order = this.sortAscending(orderBy);
      this.ascending.set(orderBy, order);
    }
    return order;
  }

  private sortAscending(orderBy: OrderBy): Uint32Array {
    const data = this.dataset;
    const ranks = this.ranks;
    // Index order is the order of (created_on, id), and of scraped_time with those as tie-breaks.
    const byCreated = this.ascending.get(orderBy === 'created_on' ? 'scraped_time' : 'created_on') ?? liveIndexes(data);
    switch (orderBy) {
      case 'created_on':
      case 'scraped_time':
        return byCreated;
      case 'supplier_name':
        return countingSort(byCreated, ranks.venue.length, (i) => ranks.venue[data.versionVenue[data.recordVersion[i]!]!]!);
      case 'fee_type':
        return countingSort(byCreated, ranks.feeType.length, (i) => ranks.feeType[data.versionFeeType[data.recordVersion[i]!]!]!);
      case 'fee_category':
        return countingSort(byCreated, ranks.category.length, (i) => ranks.category[data.category[i]!]!);
    }
  }
}

/** The indexes of the records not withdrawn, in index order. */
function liveIndexes(data: ResultsDataset): Uint32Array {
  let live = data.size;
  for (let v = 0; v < data.versionCount; v++) {
    if (data.versionWithdrawn[v] === 1) live -= data.versionStart[v + 1]! - data.versionStart[v]!;
  }
  const indexes = new Uint32Array(live);
  let at = 0;
  for (let v = 0; v < data.versionCount; v++) {
    if (data.versionWithdrawn[v] === 1) continue;
    for (let i = data.versionStart[v]!; i < data.versionStart[v + 1]!; i++) indexes[at++] = i;
  }
  return indexes;
}

function isUnfiltered(search: ResultsSearch): boolean {
  return (
    search.venues === undefined &&
    Object.keys(search.enums).length === 0 &&
    search.startDay === undefined &&
    search.endDay === undefined &&
    !search.latestOnly
  );
}

/** `indexes` ordered by rank, keeping their order within a rank: a stable sort in O(n). */
function countingSort(indexes: Uint32Array, ranks: number, rankOf: (index: number) => number): Uint32Array {
  const starts = new Uint32Array(ranks + 1);
  for (const i of indexes) starts[rankOf(i) + 1]!++;
  for (let r = 1; r <= ranks; r++) starts[r]! += starts[r - 1]!;
  const sorted = new Uint32Array(indexes.length);
  for (const i of indexes) sorted[starts[rankOf(i)]!++] = i;
  return sorted;
}
