import type { FeeScheduleResult } from '../api/types.js';
import { Random } from './random.js';
import { FEE_ACTIONS, type ResultsDataset, REVISED_AMOUNTS } from './results-dataset.js';
import * as text from './results-text.js';
import { formatLocalMicros } from './time.js';
import { codedFields, INTERFACE_VOCABULARY } from './vocabulary.js';

type Nullable = string | null;

/** Seed salts that keep record and version streams apart. */
const RECORD = 0x7ec;
const LONG_NOTE_VARIANTS = 64;

/** A nullable field's pool: its values, and null about one time in five. */
function orNull(values: readonly string[]): readonly Nullable[] {
  return [...values, ...Array<null>(Math.max(1, Math.round(values.length / 4))).fill(null)];
}

/**
 * One value from each pool, drawn as one pick among every combination of them (the first pool
 * varying slowest), so that fields drawn together stay one draw of the record's stream.
 */
function pickCombination<const Pools extends readonly (readonly Nullable[])[]>(
  random: Random,
  pools: Pools,
): { [P in keyof Pools]: Nullable } {
  let rest = Math.floor(random.next() * pools.reduce((count, pool) => count * pool.length, 1));
  const values: Nullable[] = [];
  for (let p = pools.length - 1; p >= 0; p--) {
    const pool = pools[p]!;
    values[p] = pool[rest % pool.length]!;
    rest = Math.floor(rest / pool.length);
  }
  return values as { [P in keyof Pools]: Nullable };
}

const DETAILS = [orNull(text.ACTION_DETAILS), orNull(text.BASES)] as const;
const NOTES = orNull(text.NOTES);
const REFERENCES = orNull(text.REFERENCES);
const PARTICIPANT_DETAILS = [orNull(text.PARTICIPANT_DETAILS), orNull(text.MONTHLY_VOLUMES), orNull(text.VOLUME_CRITERIA)] as const;
const SYMBOL_TEXTS = [
  orNull(text.SYMBOLS), orNull(text.EXCLUDED_SYMBOLS), orNull(text.CONDITIONS), orNull(text.EXCLUSIONS), orNull(text.EXTRA_INFO),
] as const;

/** Per-share amounts and their rebates, e.g. "$0.0030" and "($0.0030)". */
const PER_SHARE = Array.from({ length: 40 }, (_, n) => `$${((n + 1) / 10_000).toFixed(4)}`);
const PER_SHARE_REBATES = PER_SHARE.map((amount) => `(${amount})`);
const CENTS = Array.from({ length: 90 }, (_, n) => `$${((n + 1) / 100).toFixed(2)}`);
const PERCENTS = Array.from({ length: 30 }, (_, n) => `${((n + 1) / 100).toFixed(2)}%`);
const MAKE = FEE_ACTIONS.indexOf('Make');
/**
 * Revised amounts (versions added while the sandbox runs change some): per share with five
 * decimals, the last odd, so never one of the four-decimal amounts records are generated with.
 */
const REVISED = Array.from({ length: REVISED_AMOUNTS }, (_, r) => `$0.${String(2 * r + 1).padStart(5, '0')}`);
const REVISED_REBATES = REVISED.map((amount) => `(${amount})`);

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
const OTHER_AMOUNTS = AMOUNT_FORMS.flatMap((form) => Array.from({ length: 25 }, (_, n) => form(n + 1)));

function feeAmount(random: Random, isRebate: boolean): string {
  const style = random.int(0, 9);
  if (style < 6) return random.pick(isRebate ? PER_SHARE_REBATES : PER_SHARE);
  if (style < 8) return random.pick(CENTS);
  if (style === 8) return random.pick(PERCENTS);
  // One record in ten: a large amount with thousands separators, or half the time another form.
  const n = random.int(1, 25);
  const thousands = random.int(0, 999);
  if (thousands < 500) return `$${n},${String(thousands).padStart(3, '0')}.00`;
  return OTHER_AMOUNTS[(thousands % AMOUNT_FORMS.length) * 25 + n - 1]!;
}

/** Builds records on demand, the same for the same seed every time. */
export class RecordBuilder {
  private readonly longNotes = Array.from({ length: LONG_NOTE_VARIANTS }, (_, variant) => text.longNote(variant));

  constructor(private readonly dataset: ResultsDataset) {}

  /** The id of the record at `index`, as build gives it, without drawing the rest of the record. */
  id(index: number): string {
    const data = this.dataset;
    return index < data.baseSize ? new Random(data.seed, RECORD, index).uuid() : data.addedId(index);
  }

  /** The record at `index`, its fields in the service document's order. */
  build(index: number): FeeScheduleResult {
    const data = this.dataset;
    const v = data.recordVersion[index]!;
    // An added record copies the text of an earlier one (or has its own): all but id and amount.
    const content = data.contentIndex(index);
    // The draws from the record's stream come in this order, not the fields': a seed's records depend on it.
    const random = new Random(data.seed, RECORD, content);
    const id = random.uuid();
    const category = data.category[index]!;
    const chargeType = random.pick(text.CHARGE_TYPES_BY_CATEGORY[category % text.CHARGE_TYPES_BY_CATEGORY.length]!);
    const action = data.action[index]!;
    const amount = feeAmount(random, action === MAKE && random.chance(0.8));
    const [actionDetails, basis] = pickCombination(random, DETAILS);
    const notes = this.notes(content, random);
    const reference = random.pick(REFERENCES);
    const [participantDetails, monthlyVolume, monthlyVolumeCriteria] = pickCombination(random, PARTICIPANT_DETAILS);
    const [symbol, excludedSymbols, conditions, exclusions, extraInfo] = pickCombination(random, SYMBOL_TEXTS);
    const revision = data.amountRevision(index);
    const coded = codedFields(data, index, INTERFACE_VOCABULARY);
    return {
      id: index < data.baseSize ? id : data.addedId(index),
      exchange_name: coded.exchange_name,
      fee_type: coded.fee_type,
      fee_category: coded.fee_category,
      fee_charge_type: chargeType,
      fee_amount: revision === 0 ? amount : (action === MAKE ? REVISED_REBATES : REVISED)[revision - 1]!,
      fee_action: coded.fee_action,
      fee_action_details: actionDetails,
      fee_basis: basis,
      fee_notes: notes,
      fee_reference: reference,
      fee_participant: coded.fee_participant,
      fee_participant_details: participantDetails,
      fee_monthly_volume: monthlyVolume,
      fee_monthly_volume_criteria: monthlyVolumeCriteria,
      fee_symbol_classification: coded.fee_symbol_classification,
      fee_symbol_type: coded.fee_symbol_type,
      fee_trade_type: coded.fee_trade_type,
      fee_symbol: symbol,
      fee_excluded_symbols: excludedSymbols,
      fee_conditions: conditions,
      fee_exclusions: exclusions,
      fee_extra_info: extraInfo,
      version_id: data.versionId(v),
      scraped_time: coded.scraped_time,
      created_on: formatLocalMicros(data.createdMicros(index)),
    };
  }

  private notes(index: number, random: Random): string | null {
    const awkward = text.AWKWARD_NOTES[index % text.AWKWARD_STRIDE];
    if (awkward !== undefined) return awkward;
    if (index % text.LONG_NOTE_STRIDE === text.LONG_NOTE_OFFSET) return random.pick(this.longNotes);
    return random.pick(NOTES);
  }
}
