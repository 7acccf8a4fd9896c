import { FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../api/fields.js';
import type { FeeScheduleResult } from '../api/types.js';
import { Random } from './random.js';
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
  REVISED_AMOUNTS,
} from './results-dataset.js';
import * as text from './results-text.js';
import { formatLocalMicros, formatOffsetMicros } from './time.js';
import { VENUES } from './venues.js';

/**
 * Records are written straight to JSON as "byte strings": strings whose characters are the
 * bytes of the UTF-8 encoding, one per character, so that V8 keeps them one byte per character
 * and Buffer.from(page, 'latin1') is a plain copy. Runs of consecutive fields are pre-joined in
 * every combination of their values (`,"fee_symbol":"SPY","fee_excluded_symbols":null,…`), so
 * a record is about a dozen pieces picked from tables: no objects to serialise, no text to
 * escape or encode. That is what serves a thousand pages of 100 records a second.
 */

/** Text whose characters are bytes (0-255) of UTF-8; Buffer.from(text, 'latin1') yields them. */
export type ByteString = string;
type FieldName = keyof FeeScheduleResult;

/** Seed salts that keep record and version streams apart. */
const RECORD = 0x7ec;
const LONG_NOTE_VARIANTS = 64;

/** The pieces of a record, in the order write() emits them: together, the document's field order. */
const VERSION_HEAD_FIELDS = ['exchange_name', 'fee_type'] as const;
const CATEGORY_FIELDS = ['fee_category', 'fee_charge_type'] as const;
const DETAILS_FIELDS = ['fee_action_details', 'fee_basis'] as const;
const PARTICIPANT_FIELDS = ['fee_participant_details', 'fee_monthly_volume', 'fee_monthly_volume_criteria'] as const;
const SYMBOL_CODE_FIELDS = ['fee_symbol_classification', 'fee_symbol_type', 'fee_trade_type'] as const;
const SYMBOL_TEXT_FIELDS = ['fee_symbol', 'fee_excluded_symbols', 'fee_conditions', 'fee_exclusions', 'fee_extra_info'] as const;
const VERSION_TAIL_FIELDS = ['version_id', 'scraped_time'] as const;
const RECORD_LAYOUT: readonly (readonly FieldName[])[] = [
  ['id'], VERSION_HEAD_FIELDS, CATEGORY_FIELDS, ['fee_amount'], ['fee_action'], DETAILS_FIELDS, ['fee_notes'],
  ['fee_reference'], ['fee_participant'], PARTICIPANT_FIELDS, SYMBOL_CODE_FIELDS, SYMBOL_TEXT_FIELDS,
  VERSION_TAIL_FIELDS, ['created_on'],
];
if (RECORD_LAYOUT.flat().join() !== FEE_SCHEDULE_RESULT_FIELD_NAMES.join()) {
  throw new Error('the sandbox record layout does not follow the field order of src/api/fields.ts');
}

function toByteString(value: string): ByteString {
  return Buffer.from(value, 'utf8').toString('latin1');
}

/** `{"id":` for the first field, `,"exchange_name":` and so on for the others. */
const KEYS = Object.fromEntries(
  FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name, f) => [name, `${f === 0 ? '{' : ','}${JSON.stringify(name)}:`]),
) as Record<FieldName, string>;

/** Consecutive fields holding `values`, one for each name. */
function fields(names: readonly FieldName[], values: readonly (string | null)[]): ByteString {
  return toByteString(names.map((name, i) => `${KEYS[name]}${JSON.stringify(values[i])}`).join(''));
}

/** A field whose value is made per record and is ASCII with nothing to escape (UUIDs, timestamps, amounts). */
function plainField(name: FieldName, value: string): ByteString {
  return `${KEYS[name]}"${value}"`;
}

/** A nullable field's pool: its values, and null about one time in five. */
function orNull(values: readonly string[]): readonly (string | null)[] {
  return [...values, ...Array<null>(Math.max(1, Math.round(values.length / 4))).fill(null)];
}

/** Every combination of the pools' values, as consecutive fields: pick one to fill them all. */
function combinations(names: readonly FieldName[], pools: readonly (readonly (string | null)[])[]): ByteString[] {
  let rows: (string | null)[][] = [[]];
  for (const pool of pools) rows = rows.flatMap((row) => pool.map((value) => [...row, value]));
  return rows.map((row) => fields(names, row));
}

function pool(name: FieldName, values: readonly (string | null)[]): ByteString[] {
  return values.map((value) => fields([name], [value]));
}

const CATEGORY_CHARGES = FEE_CATEGORY_SPELLINGS.map((category, code) =>
  combinations(CATEGORY_FIELDS, [[category], text.CHARGE_TYPES_BY_CATEGORY[code % text.CHARGE_TYPES_BY_CATEGORY.length]!]),
);
const ACTIONS = pool('fee_action', FEE_ACTIONS);
const DETAILS = combinations(DETAILS_FIELDS, [orNull(text.ACTION_DETAILS), orNull(text.BASES)]);
const AWKWARD_NOTES = pool('fee_notes', text.AWKWARD_NOTES);
const NOTES = pool('fee_notes', orNull(text.NOTES));
const REFERENCES = pool('fee_reference', orNull(text.REFERENCES));
const PARTICIPANTS = pool('fee_participant', FEE_PARTICIPANTS);
const PARTICIPANT_DETAILS = combinations(PARTICIPANT_FIELDS, [
  orNull(text.PARTICIPANT_DETAILS), orNull(text.MONTHLY_VOLUMES), orNull(text.VOLUME_CRITERIA),
]);
/** Indexed by (classification * symbol types + symbol type) * (trade types + 1) + trade type, null last. */
const SYMBOL_CODES = combinations(SYMBOL_CODE_FIELDS, [FEE_SYMBOL_CLASSIFICATIONS, FEE_SYMBOL_TYPES, [...FEE_TRADE_TYPES, null]]);
const SYMBOL_TEXTS = combinations(SYMBOL_TEXT_FIELDS, [
  orNull(text.SYMBOLS), orNull(text.EXCLUDED_SYMBOLS), orNull(text.CONDITIONS), orNull(text.EXCLUSIONS), orNull(text.EXTRA_INFO),
]);

/** Per-share amounts and their rebates, e.g. "$0.0030" and "($0.0030)". */
const PER_SHARE = Array.from({ length: 40 }, (_, n) => `$${((n + 1) / 10_000).toFixed(4)}`);
const PER_SHARE_FEES = pool('fee_amount', PER_SHARE);
const PER_SHARE_REBATES = pool('fee_amount', PER_SHARE.map((amount) => `(${amount})`));
const CENTS = pool('fee_amount', Array.from({ length: 90 }, (_, n) => `$${((n + 1) / 100).toFixed(2)}`));
const PERCENTS = pool('fee_amount', Array.from({ length: 30 }, (_, n) => `${((n + 1) / 100).toFixed(2)}%`));
const MAKE = FEE_ACTIONS.indexOf('Make');
/**
 * Revised amounts (versions added while the sandbox runs change some): per share with five
 * decimals, the last odd, so never one of the four-decimal amounts records are generated with.
 */
const REVISED = Array.from({ length: REVISED_AMOUNTS }, (_, r) => `$0.${String(2 * r + 1).padStart(5, '0')}`);
const REVISED_FEES = pool('fee_amount', REVISED);
const REVISED_REBATES = pool('fee_amount', REVISED.map((amount) => `(${amount})`));

/**
 * The other ways venues write amounts, one for each rule of the contract's "Fee amounts as
 * numbers" (`mkt results --parse-amounts`), each made from a number n from 1 to 25: every
 * currency and unit, every way of writing a rebate, words around the amount, ranges, "if …,
 * otherwise …", the words for nothing to pay, and the texts that are not an amount.
 */
const AMOUNT_FORMS: readonly ((n: number) => string)[] = [
  (n) => `€${cents(n)}`,
  (n) => `EUR ${cents(n)}`,
  (n) => `${cents(n)} EUR per contract`,
  (n) => `£${cents(n)} per contract`,
  (n) => `GBP ${n * 10}.00 per port per month`,
  (n) => `USD ${mills(n)}`,
  (n) => `${mills(n)} USD per share`,
  (n) => `${n} bps`,
  (n) => `${(n / 10).toFixed(1)} bp`,
  (n) => `$(${mills(n)})`,
  (n) => `(${mills(n)})`,
  (n) => `-$${mills(n)}`,
  (n) => `−€${cents(n)}`,
  (n) => `($${mills(n)}) per share`,
  (n) => `$${mills(n)} per share`,
  (n) => `$${cents(n)} per contract`,
  (n) => `$${n * 100}.00 per port per month`,
  // Millions, no wider than `$25,999.00`: a table of results still fits 80 columns.
  (n) => `$${(n % 9) + 1},${String(n * 37).padStart(3, '0')},000`,
  (n) => `$${mills(n)} - $${mills(n + 5)}`,
  (n) => `$${mills(n)} – $${mills(n + 10)}`,
  (n) => `$${mills(n)} if ADV ≥ 0.${n}%, otherwise $${mills(n + 5)}`,
  () => 'Free',
  () => 'No charge',
  () => 'NO FEE',
  () => 'waived',
  () => '',
  () => 'N/A',
  () => 'TBD',
  () => '-',
];
const cents = (n: number) => (n / 100).toFixed(2);
const mills = (n: number) => (n / 10_000).toFixed(4);
/** AMOUNT_FORMS[form] for each n from 1 to 25, at [form * 25 + n - 1]. */
const OTHER_AMOUNTS = AMOUNT_FORMS.flatMap((form) => pool('fee_amount', Array.from({ length: 25 }, (_, n) => form(n + 1))));

function feeAmount(random: Random, isRebate: boolean): ByteString {
  const style = random.int(0, 9);
  if (style < 6) return random.pick(isRebate ? PER_SHARE_REBATES : PER_SHARE_FEES);
  if (style < 8) return random.pick(CENTS);
  if (style === 8) return random.pick(PERCENTS);
  // One record in ten: a large amount with thousands separators, or half the time another form.
  const n = random.int(1, 25);
  const thousands = random.int(0, 999);
  if (thousands < 500) return plainField('fee_amount', `$${n},${String(thousands).padStart(3, '0')}.00`);
  return OTHER_AMOUNTS[(thousands % AMOUNT_FORMS.length) * 25 + n - 1]!;
}

/** Writes the JSON of records on demand, the same for the same seed every time. */
export class RecordWriter {
  /** Per version: exchange_name and fee_type; version_id and scraped_time. Extended as versions are added. */
  private readonly versionHeads: ByteString[] = [];
  private readonly versionTails: ByteString[] = [];
  private readonly longNotes: readonly ByteString[];

  constructor(private readonly dataset: ResultsDataset) {
    this.longNotes = Array.from({ length: LONG_NOTE_VARIANTS }, (_, variant) => fields(['fee_notes'], [text.longNote(variant)]));
  }

  /**
   * Appends the record at `index` to `parts` as one JSON object, in RECORD_LAYOUT order.
   * Callers join a whole page's parts at once: one copy, no ropes.
   */
  write(index: number, parts: ByteString[]): void {
    const data = this.dataset;
    const v = data.recordVersion[index]!;
    if (v >= this.versionHeads.length) this.addVersions();
    // An added record copies the text of an earlier one (or has its own): all but id and amount.
    const content = data.contentIndex(index);
    const random = new Random(data.seed, RECORD, content);
    const id = random.uuid();
    const action = data.action[index]!;
    const tradeType = data.tradeType[index]!;
    const symbolCode =
      (data.symbolClassification[index]! * FEE_SYMBOL_TYPES.length + data.symbolType[index]!) * (FEE_TRADE_TYPES.length + 1) +
      (tradeType === NULL_CODE ? FEE_TRADE_TYPES.length : tradeType);
    const category = random.pick(CATEGORY_CHARGES[data.category[index]!]!);
    const amount = feeAmount(random, action === MAKE && random.chance(0.8));
    const revision = data.amountRevision(index);
    parts.push(
      plainField('id', index < data.baseSize ? id : data.addedId(index)),
      this.versionHeads[v]!,
      category,
      revision === 0 ? amount : (action === MAKE ? REVISED_REBATES : REVISED_FEES)[revision - 1]!,
      ACTIONS[action]!,
      random.pick(DETAILS),
      this.notes(content, random),
      random.pick(REFERENCES),
      PARTICIPANTS[data.participant[index]!]!,
      random.pick(PARTICIPANT_DETAILS),
      SYMBOL_CODES[symbolCode]!,
      random.pick(SYMBOL_TEXTS),
      this.versionTails[v]!,
      plainField('created_on', formatLocalMicros(data.createdMicros(index))),
      '}',
    );
  }

  private addVersions(): void {
    const data = this.dataset;
    for (let v = this.versionHeads.length; v < data.versionCount; v++) {
      this.versionHeads.push(fields(VERSION_HEAD_FIELDS, [VENUES[data.versionVenue[v]!]!.id, FEE_TYPE_SPELLINGS[data.versionFeeType[v]!]!]));
      this.versionTails.push(
        fields(VERSION_TAIL_FIELDS, [data.versionId(v), formatOffsetMicros(data.versionScrapedMicros[v]!)]),
      );
    }
  }

  private notes(index: number, random: Random): ByteString {
    const awkward = AWKWARD_NOTES[index % text.AWKWARD_STRIDE];
    if (awkward !== undefined) return awkward;
    if (index % text.LONG_NOTE_STRIDE === text.LONG_NOTE_OFFSET) return random.pick(this.longNotes);
    return random.pick(NOTES);
  }
}
