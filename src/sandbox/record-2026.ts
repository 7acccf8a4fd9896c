import type { FeeScheduleResult2026, RecordRelationships } from '../api/types.js';
import { hash32, hashString, Random } from './random.js';
import type { ResultsDataset } from './results-dataset.js';
import type { Includes } from './results-query.js';
import { RecordBuilder } from './results-record.js';
import { DEFINITIONS, FOOTNOTES, SOURCE_TITLES } from './results-text.js';
import { formatDate } from './time.js';
import { VENUES } from './venues.js';
import { codedFields, VOCABULARY_2026 } from './vocabulary.js';

/** Seed salts of the citation streams: a version's document, a record's page and relationships. */
const SOURCE = 0x50c;
const PAGE = 0x9a6;
const RELATIONSHIPS = 0x4e1;
/** Pages of a generated source document. */
const MAX_PAGE = 180;

/** A version's source document: its title and where it was fetched from. */
interface Source {
  document: string;
  link: string;
}

/**
 * Builds the 2026 shape's records as they are served: each is its interface twin (the same
 * index of the same dataset) in the 2026 edition's keys, order and spellings, with citations
 * drawn from the seed when asked for. Nothing is stored per record but the id index, made on
 * the first look-up by id.
 */
export class Record2026Builder {
  private readonly records: RecordBuilder;
  /** Open addressing by hash of the id: a slot holds a record index + 1, 0 when free. */
  private idTable = new Uint32Array(0);
  /** The dataset's size and revision idTable was made for. */
  private idTableFor = '';

  constructor(private readonly dataset: ResultsDataset) {
    this.records = new RecordBuilder(dataset);
  }

  build(index: number, includes: Includes): FeeScheduleResult2026 {
    const data = this.dataset;
    const record = this.records.build(index);
    const coded = codedFields(data, index, VOCABULARY_2026);
    const content = data.contentIndex(index);
    const source = includes.source ? this.source(data.recordVersion[index]!) : undefined;
    return {
      record_id: record.id,
      exchange_name: coded.exchange_name,
      scraped_time: coded.scraped_time,
      version_id: record.version_id,
      fee_type: coded.fee_type,
      source_document: source?.document ?? null,
      source_link: source?.link ?? null,
      page_number: source ? new Random(data.seed, PAGE, content).int(1, MAX_PAGE) : null,
      fee_category: coded.fee_category,
      fee_charge_type: record.fee_charge_type,
      fee_amount: record.fee_amount,
      fee_action: coded.fee_action,
      fee_action_details: record.fee_action_details,
      fee_basis: record.fee_basis,
      fee_participant: coded.fee_participant,
      fee_participant_details: record.fee_participant_details,
      fee_monthly_volume: record.fee_monthly_volume,
      fee_monthly_volume_criteria: record.fee_monthly_volume_criteria,
      fee_symbol_classification: coded.fee_symbol_classification,
      fee_symbol_type: coded.fee_symbol_type,
      fee_trade_type: coded.fee_trade_type,
      fee_symbol: record.fee_symbol,
      fee_excluded_symbols: record.fee_excluded_symbols,
      fee_conditions: record.fee_conditions,
      fee_exclusions: record.fee_exclusions,
      fee_notes: record.fee_notes,
      fee_extra_info: record.fee_extra_info,
      relationships: includes.footnotes || includes.definitions ? relationships(data.seed, content, includes) : null,
    };
  }

  /** The index of the record with this id, withdrawn ones aside; undefined when none has it. */
  indexOfId(id: string): number | undefined {
    const table = this.idIndex();
    const mask = table.length - 1;
    for (let slot = hashString(id) & mask; table[slot] !== 0; slot = (slot + 1) & mask) {
      const index = table[slot]! - 1;
      if (this.records.id(index) === id) {
        return this.dataset.versionWithdrawn[this.dataset.recordVersion[index]!] === 1 ? undefined : index;
      }
    }
    return undefined;
  }

  /** The id table, remade when versions were added or withdrawn since. */
  private idIndex(): Uint32Array {
    const data = this.dataset;
    const made = `${data.size}|${data.revision}`;
    if (made === this.idTableFor) return this.idTable;
    let size = 1024;
    while (size < data.size * 2) size *= 2;
    const table = new Uint32Array(size);
    const mask = size - 1;
    for (let index = 0; index < data.size; index++) {
      let slot = hashString(this.records.id(index)) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = index + 1;
    }
    this.idTable = table;
    this.idTableFor = made;
    return table;
  }

  /** Version v's document: one title and link for all its records, on a reserved example host. */
  private source(v: number): Source {
    const data = this.dataset;
    const venue = VENUES[data.versionVenue[v]!]!;
    const feeType = data.groups[data.versionGroup[v]!]!.feeType;
    const random = new Random(data.seed, SOURCE, v);
    const title = random.pick(SOURCE_TITLES)(venue.name, feeType);
    const day = formatDate(Math.floor(data.versionScrapedMicros[v]! / 1000));
    const file = hash32(data.seed, SOURCE, v).toString(16).padStart(8, '0');
    return { document: title, link: `https://cdn.example.com/${VOCABULARY_2026.exchangeIds[data.versionVenue[v]!]!}/parsed/${day}/${file}.pdf` };
  }
}

/** A record's footnotes and definitions, each list empty when not asked for, and sometimes when asked. */
function relationships(seed: number, content: number, includes: Includes): RecordRelationships {
  const random = new Random(seed, RELATIONSHIPS, content);
  const footnotes = consecutive(random, FOOTNOTES, random.int(0, 3)).map((text) => ({ text }));
  const definitions = consecutive(random, DEFINITIONS, random.int(0, 2));
  return { footnotes: includes.footnotes ? footnotes : [], definitions: includes.definitions ? definitions : [] };
}

/** `count` items of `items` in a row from a drawn start, wrapping round: distinct while count ≤ items.length. */
function consecutive<T>(random: Random, items: readonly T[], count: number): T[] {
  const start = random.int(0, items.length - 1);
  return Array.from({ length: count }, (_, k) => items[(start + k) % items.length]!);
}
