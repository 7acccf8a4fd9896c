import { ENUM_FILTER_VALUES } from '../api/filters.js';
import { MAX_VERSIONS } from './limits.js';
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
 *
 * Versions can be added and withdrawn while the sandbox runs (see addVersion and withdraw):
 * an added version gets the next version number and record indexes after every existing
 * one, and all its records share one created_on, later than any before; its records are
 * numbered in the order of their ids, so index order stays the order of (created_on, id).
 * Its ids and version_id carry the run's stamp (newRunStamp): no earlier run gave them.
 * Withdrawn records keep their indexes; searches leave them out.
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
const OTHER_ACTION = codeOf(FEE_ACTIONS, 'Other');

export interface ResultsDatasetOptions {
  seed: number;
  /** How many records; at most MAX_RECORDS (startSandbox checks). */
  records: number;
}

/** One venue's fee schedule document of one fee_type: what a version is a scrape of. */
export interface VersionGroup {
  venueIndex: number;
  feeType: FeeTypeName;
}

/** What addVersion did. */
export interface AddedVersion {
  version: number;
  /** The version it was derived from; undefined when the group had no records left. */
  derivedFrom: number | undefined;
  records: number;
  /** Items of the previous version kept with a new amount, added, and left out. */
  changed: number;
  added: number;
  removed: number;
}

/** Seed salts of the streams that added versions draw from, and of every version_id's. */
const ADDED_VERSION = 0xadd;
const ADDED_ID = 0x1dd;
const VERSION_ID = 0x7e5;

/**
 * When the last sandbox of this process started, in milliseconds: a run stamps its added versions'
 * ids with a later one than any run before it in the process, even one started within the same ms.
 */
let lastRunMs = 0;

/**
 * What a run stamps on the ids of the versions it adds (Random.uuidV7): the moment it started,
 * which no earlier run had, and 12 random bits that set apart runs of other processes started
 * in the same millisecond. A mirror synced from an earlier run then never meets its ids again
 * with other content. Everything else of an added version, its ids' order included, still
 * comes from the seed and the calls alone.
 */
function newRunStamp(): { ms: number; run: number } {
  lastRunMs = Math.max(Date.now(), lastRunMs + 1);
  return { ms: lastRunMs, run: Math.floor(Math.random() * 0x1000) };
}
/** Between the last created_on so far and an added version's scraped_time: 1 hour to 2 days. */
const ADDED_GAP_SECONDS = [3_600, 172_800] as const;
/** Per item of the previous version: the odds of leaving it out, and of changing its amount. */
const REMOVE_ODDS = 0.1;
const CHANGE_ODDS = 0.2;
/**
 * How many revised amounts there are (results-record.ts spells them). A changed amount is a
 * revision 1 to REVISED_AMOUNTS, never the one it replaces; 0 is the amount a record was
 * generated with. Revised amounts are spelt unlike generated ones, so a change always shows.
 */
export const REVISED_AMOUNTS = 400;

type Column = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/** `column` itself when it holds `length` entries, else a copy with room for at least that many. */
function withRoom<T extends Column>(column: T, length: number): T {
  if (column.length >= length) return column;
  const grown = new (column.constructor as new (length: number) => T)(Math.max(length, column.length + (column.length >> 2), 1024));
  grown.set(column);
  return grown;
}

export class ResultsDataset {
  readonly seed: number;
  /** Records generated at start: indexes below it are rebuilt from (seed, index) alone. */
  readonly baseSize: number;
  /** Records ever held, withdrawn ones included: indexes run from 0 to size - 1. */
  size: number;
  versionCount: number;
  /** Grows by one with every version added or withdrawn, so that caches know when to drop. */
  revision = 0;
  readonly groups: readonly VersionGroup[];

  // Per-version and per-record columns are typed arrays, replaced by larger copies when
  // versions are added; entries past versionCount and size are unused.

  /** Per version: the venue (index in VENUES). */
  versionVenue: Uint8Array;
  /** Per version: the fee_type spelling (index in FEE_TYPE_SPELLINGS). */
  versionFeeType: Uint8Array;
  /** Per version: its group (index in groups). */
  versionGroup: Uint16Array;
  /** Per version: its first record index; one more entry holds the total. */
  versionStart: Uint32Array;
  /** Per version: scraped_time, in microseconds since the epoch. */
  versionScrapedMicros: Float64Array;
  /** Per version: created_on of its first record, in microseconds since the epoch. */
  versionCreatedMicros: Float64Array;
  /** Per version: microseconds between the created_on of consecutive records (0 for added versions). */
  versionStepMicros: Uint16Array;
  /** Per version: the scraped_time's UTC day, in days since the epoch. */
  versionScrapedDay: Int32Array;
  /** Per version: 1 when it is the newest version with records of its group, withdrawn ones aside. */
  versionIsLatest: Uint8Array;
  /** Per version: 1 once withdrawn. */
  versionWithdrawn: Uint8Array;

  /** Per record: its version. */
  recordVersion: Uint16Array;
  /** Per record: codes into the spelling lists above. */
  category: Uint8Array;
  action: Uint8Array;
  participant: Uint8Array;
  symbolClassification: Uint8Array;
  symbolType: Uint8Array;
  /** NULL_CODE where fee_trade_type is null. */
  tradeType: Uint8Array;

  // Per added record (index - baseSize): how results-record.ts rebuilds it.

  /** The record whose text it carries: an earlier one it was copied from, or itself when new. */
  private addedContent = new Uint32Array(0);
  /** Its amount: 0 for the content record's own, else a revision (see REVISED_AMOUNTS). */
  private addedAmountRevision = new Uint16Array(0);
  /** Its id is drawn from (seed, its version, this ordinal), stamped with the run's stamp. */
  private addedIdOrdinal = new Uint32Array(0);
  /** Versions generated at start: those after them were added while this run ran. */
  private readonly baseVersions: number;
  private readonly runStamp = newRunStamp();
  /** version_id → version number, for the versions looked up so far (versionNumberOf). */
  private readonly versionsById = new Map<string, number>();

  /** The latest scraped_time and created_on so far, withdrawn versions included, in microseconds. */
  private lastScrapedMicros = 0;
  private lastCreatedMicros = 0;

  constructor(options: ResultsDatasetOptions) {
    this.seed = options.seed;
    this.size = options.records;
    this.baseSize = options.records;
    const random = new Random(options.seed, 0x5e5);

    const groups = VENUES.flatMap((venue, venueIndex) =>
      venue.feeTypes.map((feeType: FeeTypeName) => ({ venueIndex, feeType, upperOdds: random.next() * 0.8 })),
    );
    this.groups = groups.map(({ venueIndex, feeType }) => ({ venueIndex, feeType }));
    // Several versions per group, scraped in an interleaved order.
    const order = groups.flatMap((_, groupIndex) => Array<number>(random.int(3, 7)).fill(groupIndex));
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const versionCount = order.length;
    this.versionCount = versionCount;
    this.baseVersions = versionCount;
    this.versionVenue = new Uint8Array(versionCount);
    this.versionFeeType = new Uint8Array(versionCount);
    this.versionGroup = Uint16Array.from(order);
    this.versionStart = new Uint32Array(versionCount + 1);
    this.versionScrapedMicros = new Float64Array(versionCount);
    this.versionCreatedMicros = new Float64Array(versionCount);
    this.versionStepMicros = new Uint16Array(versionCount);
    this.versionScrapedDay = new Int32Array(versionCount);
    this.versionIsLatest = new Uint8Array(versionCount);
    this.versionWithdrawn = new Uint8Array(versionCount);

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
    this.markLatest();

    this.recordVersion = new Uint16Array(this.size);
    this.category = new Uint8Array(this.size);
    this.action = new Uint8Array(this.size);
    this.participant = new Uint8Array(this.size);
    this.symbolClassification = new Uint8Array(this.size);
    this.symbolType = new Uint8Array(this.size);
    this.tradeType = new Uint8Array(this.size);
    for (let v = 0; v < versionCount; v++) {
      const isOption = this.versionFeeType[v] !== FEE_TYPE_EQUITY;
      for (let i = this.versionStart[v]!; i < this.versionStart[v + 1]!; i++) {
        this.recordVersion[i] = v;
        this.drawCodes(random, isOption, i);
      }
    }
    this.lastScrapedMicros = this.versionScrapedMicros[versionCount - 1] ?? 0;
    this.lastCreatedMicros = this.size > 0 ? this.createdMicros(this.size - 1) : 0;
  }

  /** created_on of a record, in microseconds since the epoch. */
  createdMicros(index: number): number {
    const v = this.recordVersion[index]!;
    return this.versionCreatedMicros[v]! + (index - this.versionStart[v]!) * this.versionStepMicros[v]!;
  }

  /** The record whose text `index` carries: itself, unless it is an added copy of an earlier one. */
  contentIndex(index: number): number {
    return index < this.baseSize ? index : this.addedContent[index - this.baseSize]!;
  }

  /** 0 for the amount the content record was generated with, else the revision (1 to REVISED_AMOUNTS) it carries. */
  amountRevision(index: number): number {
    return index < this.baseSize ? 0 : this.addedAmountRevision[index - this.baseSize]!;
  }

  /** An added record's id (records generated at start draw theirs from their own stream). */
  addedId(index: number): string {
    return this.addedIdOf(this.recordVersion[index]!, this.addedIdOrdinal[index - this.baseSize]!);
  }

  /** A version's version_id: drawn from (seed, its number), and for a version added while this run runs, stamped with the run's stamp. */
  versionId(version: number): string {
    const random = new Random(this.seed, VERSION_ID, version);
    return version < this.baseVersions ? random.uuid() : random.uuidV7(this.runStamp.ms, this.runStamp.run);
  }

  private addedIdOf(version: number, ordinal: number): string {
    return new Random(this.seed, ADDED_ID, version, ordinal).uuidV7(this.runStamp.ms, this.runStamp.run);
  }

  /** A version's number by its version_id; undefined when no version has it. */
  versionNumberOf(versionId: string): number | undefined {
    for (let v = this.versionsById.size; v < this.versionCount; v++) this.versionsById.set(this.versionId(v), v);
    return this.versionsById.get(versionId);
  }

  /** The group's newest version with records, withdrawn ones aside. */
  latestVersionOf(group: number): number | undefined {
    for (let v = this.versionCount - 1; v >= 0; v--) {
      if (this.versionGroup[v] === group && this.isLive(v)) return v;
    }
    return undefined;
  }

  /**
   * Adds a version of `group`, derived from its latest: each item is left out with odds
   * REMOVE_ODDS, else kept with a new amount with odds CHANGE_ODDS (at least one of each when
   * there are two items or more), and `added` new items join them (by default up to a tenth of
   * the previous count, at least 1). Every draw comes from (seed, the new version's number), so
   * the same seed and the same calls give the same versions, with ids of this run (newRunStamp).
   */
  addVersion(group: number, added?: number): AddedVersion {
    if (this.versionCount >= MAX_VERSIONS) throw new RangeError(`the sandbox holds at most ${MAX_VERSIONS} versions`);
    const v = this.versionCount;
    const random = new Random(this.seed, ADDED_VERSION, v);
    const previous = this.latestVersionOf(group);
    const spellingOf = this.newestVersionOf(group);
    const feeType = spellingOf === undefined ? codeOf(FEE_TYPE_SPELLINGS, this.groups[group]!.feeType) : this.versionFeeType[spellingOf]!;

    // The previous version's items, each kept as it is, kept with a new amount, or left out.
    const kept: number[] = [];
    const changed = new Set<number>();
    if (previous !== undefined) {
      const first = this.versionStart[previous]!;
      const count = this.versionStart[previous + 1]! - first;
      const removed = new Set<number>();
      for (let k = 0; k < count; k++) {
        if (random.chance(REMOVE_ODDS)) removed.add(k);
        else if (random.chance(CHANGE_ODDS)) changed.add(first + k);
      }
      if (count >= 2 && removed.size === 0) {
        const k = random.int(0, count - 1);
        removed.add(k);
        changed.delete(first + k);
      }
      for (let k = 0; k < count; k++) if (!removed.has(k)) kept.push(first + k);
      if (changed.size === 0 && kept.length > 0) changed.add(random.pick(kept));
    }
    const previousCount = previous === undefined ? 0 : this.versionStart[previous + 1]! - this.versionStart[previous]!;
    const addedCount = added ?? random.int(1, Math.max(1, Math.ceil(previousCount / 10)));

    // Items are numbered (kept ones, then new ones) to draw their ids, then placed in id order.
    const itemCount = kept.length + addedCount;
    const items = Array.from({ length: itemCount }, (_, ordinal) => ({
      ordinal,
      id: this.addedIdOf(v, ordinal),
    }));
    items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

    const start = this.size;
    this.makeRoom(v + 1, start + itemCount);
    const scrapedMicros =
      Math.max(this.lastScrapedMicros, this.lastCreatedMicros) +
      random.int(ADDED_GAP_SECONDS[0], ADDED_GAP_SECONDS[1]) * 1_000_000 +
      random.int(0, 999_999);
    const createdMicros = scrapedMicros + random.int(30_000_000, 600_000_000);
    this.versionVenue[v] = this.groups[group]!.venueIndex;
    this.versionFeeType[v] = feeType;
    this.versionGroup[v] = group;
    this.versionStart[v] = start;
    this.versionStart[v + 1] = start + itemCount;
    this.versionScrapedMicros[v] = scrapedMicros;
    this.versionCreatedMicros[v] = createdMicros;
    this.versionStepMicros[v] = 0;
    this.versionScrapedDay[v] = Math.floor(scrapedMicros / MICROS_PER_MS / DAY_MS);

    items.forEach(({ ordinal }, rank) => {
      const index = start + rank;
      const slot = index - this.baseSize;
      this.recordVersion[index] = v;
      this.addedIdOrdinal[slot] = ordinal;
      const from = kept[ordinal];
      if (from === undefined) {
        this.drawCodes(random, feeType !== FEE_TYPE_EQUITY, index);
        this.addedContent[slot] = index;
        this.addedAmountRevision[slot] = 0;
        return;
      }
      this.category[index] = this.category[from]!;
      this.action[index] = this.action[from]!;
      this.participant[index] = this.participant[from]!;
      this.symbolClassification[index] = this.symbolClassification[from]!;
      this.symbolType[index] = this.symbolType[from]!;
      this.tradeType[index] = this.tradeType[from]!;
      this.addedContent[slot] = this.contentIndex(from);
      const revision = this.amountRevision(from);
      this.addedAmountRevision[slot] = changed.has(from) ? otherRevision(random, revision) : revision;
    });

    this.versionCount = v + 1;
    this.size = start + itemCount;
    this.lastScrapedMicros = scrapedMicros;
    this.lastCreatedMicros = createdMicros;
    this.markLatest();
    this.revision++;
    return {
      version: v,
      derivedFrom: previous,
      records: itemCount,
      changed: changed.size,
      added: addedCount,
      removed: previousCount - kept.length,
    };
  }

  /** Withdraws a version: its records leave every answer, and its group's latest is the one before. */
  withdraw(version: number): void {
    if (this.versionWithdrawn[version] === 1) return;
    this.versionWithdrawn[version] = 1;
    this.markLatest();
    this.revision++;
  }

  private isLive(version: number): boolean {
    return this.versionWithdrawn[version] === 0 && this.versionStart[version + 1]! > this.versionStart[version]!;
  }

  /** The group's newest version, empty or withdrawn ones included: whose fee_type spelling a new one keeps. */
  private newestVersionOf(group: number): number | undefined {
    for (let v = this.versionCount - 1; v >= 0; v--) if (this.versionGroup[v] === group) return v;
    return undefined;
  }

  private markLatest(): void {
    this.versionIsLatest.fill(0);
    const found = new Uint8Array(this.groups.length);
    for (let v = this.versionCount - 1; v >= 0; v--) {
      const group = this.versionGroup[v]!;
      if (found[group] === 1 || !this.isLive(v)) continue;
      found[group] = 1;
      this.versionIsLatest[v] = 1;
    }
  }

  /** Fills the codes of a new record of an Option or Equity version. */
  private drawCodes(random: Random, isOption: boolean, index: number): void {
    let category = random.pick(CATEGORY_WEIGHTS);
    if (category === CATEGORY_FEE_AND_REBATES && random.chance(0.3)) category = CATEGORY_FEES_AND_REBATES;
    this.category[index] = category;
    const isLiquidityFee = category === CATEGORY_FEE_AND_REBATES || category === CATEGORY_FEES_AND_REBATES;
    this.action[index] = isLiquidityFee ? random.pick(LIQUIDITY_ACTIONS) : OTHER_ACTION;
    this.participant[index] = random.pick(isOption ? OPTION_PARTICIPANTS : EQUITY_PARTICIPANTS);
    this.symbolClassification[index] = random.pick(isOption ? OPTION_CLASSIFICATIONS : EQUITY_CLASSIFICATIONS);
    this.symbolType[index] = random.pick(isOption ? OPTION_SYMBOL_TYPES : EQUITY_SYMBOL_TYPES);
    this.tradeType[index] = random.pick(isOption ? OPTION_TRADE_TYPES : EQUITY_TRADE_TYPES);
  }

  /** Room for `versions` versions and `records` records in every column. */
  private makeRoom(versions: number, records: number): void {
    this.versionVenue = withRoom(this.versionVenue, versions);
    this.versionFeeType = withRoom(this.versionFeeType, versions);
    this.versionGroup = withRoom(this.versionGroup, versions);
    this.versionStart = withRoom(this.versionStart, versions + 1);
    this.versionScrapedMicros = withRoom(this.versionScrapedMicros, versions);
    this.versionCreatedMicros = withRoom(this.versionCreatedMicros, versions);
    this.versionStepMicros = withRoom(this.versionStepMicros, versions);
    this.versionScrapedDay = withRoom(this.versionScrapedDay, versions);
    this.versionIsLatest = withRoom(this.versionIsLatest, versions);
    this.versionWithdrawn = withRoom(this.versionWithdrawn, versions);
    this.recordVersion = withRoom(this.recordVersion, records);
    this.category = withRoom(this.category, records);
    this.action = withRoom(this.action, records);
    this.participant = withRoom(this.participant, records);
    this.symbolClassification = withRoom(this.symbolClassification, records);
    this.symbolType = withRoom(this.symbolType, records);
    this.tradeType = withRoom(this.tradeType, records);
    const added = records - this.baseSize;
    this.addedContent = withRoom(this.addedContent, added);
    this.addedAmountRevision = withRoom(this.addedAmountRevision, added);
    this.addedIdOrdinal = withRoom(this.addedIdOrdinal, added);
  }
}

/** A revision from 1 to REVISED_AMOUNTS other than `current`. */
function otherRevision(random: Random, current: number): number {
  if (current === 0) return random.int(1, REVISED_AMOUNTS);
  const revision = random.int(1, REVISED_AMOUNTS - 1);
  return revision >= current ? revision + 1 : revision;
}
