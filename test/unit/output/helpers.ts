import { afterEach, beforeEach } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FeeScheduleResult } from '../../../src/api/types.js';
import type { WriteOptions } from '../../../src/output/write.js';

/** A stdout stand-in that keeps what it is given, terminal or not. */
export class MemoryStream extends Writable {
  readonly chunks: Buffer[] = [];
  constructor(
    readonly isTTY = false,
    readonly columns?: number,
  ) {
    super();
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    callback();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
  // What a tty.WriteStream offers, for ora.
  cursorTo(x: number, callback?: () => void): boolean {
    return this.write(`\u001b[${x + 1}G`, callback);
  }
  moveCursor(dx: number, dy: number, callback?: () => void): boolean {
    return this.write(`\u001b[${dy}A\u001b[${dx}C`, callback);
  }
  clearLine(_direction: number, callback?: () => void): boolean {
    return this.write('\u001b[2K', callback);
  }
}

/** writeDataset's options: to memory streams, no colour, never aborted, unless overridden. */
export function options(overrides: Partial<WriteOptions> = {}): WriteOptions {
  return { stdout: new MemoryStream(), stderr: new MemoryStream(), color: false, signal: new AbortController().signal, ...overrides };
}

/** Records as a dataset's batches: two to a batch, so that exporters see several. */
export async function* from<T extends object>(items: Iterable<T>): AsyncGenerator<readonly T[]> {
  const all = [...items];
  for (let index = 0; index < all.length; index += 2) yield all.slice(index, index + 2);
}

/** Records pulled one by one (a test's generator), each as a batch of its own. */
export async function* batched<T extends object>(records: AsyncIterable<T>): AsyncGenerator<readonly T[]> {
  for await (const record of records) yield [record];
}

export interface TempDir {
  path: string;
  files: () => Promise<string[]>;
  remove: () => Promise<void>;
}

export async function tempDir(): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), 'mkt-output-'));
  return { path, files: async () => (await readdir(path)).sort(), remove: () => rm(path, { recursive: true, force: true }) };
}

/** Texts that break naive writers and readers. */
export const AWKWARD_TEXTS: readonly (string | null)[] = [
  'plain',
  'comma, inside',
  'quote " inside',
  '"fully quoted"',
  'line\nfeed',
  'carriage\r\nreturn line feed',
  'bare\rcarriage return',
  'tab\tinside',
  'emoji 🚀📈 and ✓',
  'ｆｕｌｌｗｉｄｔｈ ＡＢＣ',
  '',
  null,
  ' leading and trailing spaces ',
  'NULL',
  '\\N',
  ',',
  '"',
  'é accents à la carte',
  `long ${'x, "y"\n'.repeat(1500)}end`,
];

const SCRAPED_TIMES = [
  '2024-05-01T13:45:12.123456+00:00',
  '2024-05-01T13:45:12.000001Z',
  '2023-12-31T23:59:59.999999+05:30',
  '2024-02-29T00:00:00.500000-04:00',
  '2024-07-04T12:00:00+00:00',
];
const CREATED_ON = ['2024-05-01T13:47:00.654321', '2023-12-31T23:59:59.999999', '2024-02-29T00:00:00.000001', '2024-07-04T12:00:00'];

/** Fee schedule results as the service may send them, every awkward value included. */
export function awkwardResults(count = AWKWARD_TEXTS.length * 2): FeeScheduleResult[] {
  return Array.from({ length: count }, (_, index) => {
    const text = (offset: number): string | null => AWKWARD_TEXTS[(index + offset) % AWKWARD_TEXTS.length] ?? null;
    const required = (offset: number): string => text(offset) ?? 'was null';
    return {
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      exchange_name: index % 3 === 0 ? 'NYSE' : 'CBOE',
      fee_type: ['Option', 'OPTION', 'Equity'][index % 3] as string,
      fee_category: index % 2 === 0 ? 'Fees And Rebates' : 'Fee And Rebates',
      fee_charge_type: required(1),
      fee_amount: index % 4 === 0 ? '($0.0020)' : '$0.25 per contract',
      fee_action: 'Make',
      fee_action_details: text(2),
      fee_basis: text(3),
      fee_notes: text(0),
      fee_reference: text(4),
      fee_participant: 'Market Maker',
      fee_participant_details: text(5),
      fee_monthly_volume: text(6),
      fee_monthly_volume_criteria: text(7),
      fee_symbol_classification: 'N/A',
      fee_symbol_type: 'Non Penny',
      fee_trade_type: text(8),
      fee_symbol: text(9),
      fee_excluded_symbols: text(10),
      fee_conditions: text(11),
      fee_exclusions: text(12),
      fee_extra_info: text(13),
      version_id: `11111111-0000-4000-8000-${String(index).padStart(12, '0')}`,
      scraped_time: SCRAPED_TIMES[index % SCRAPED_TIMES.length] as string,
      created_on: CREATED_ON[index % CREATED_ON.length] as string,
    };
  });
}

export const FEES = {
  exchange: 'NYSE',
  effective_date: '2024-01-01',
  fee_schedule: {
    maker_fee: -0.002,
    taker_fee: 0.003,
    tier_thresholds: {
      tier_2: { volume: 5_000_000, maker_rebate: -0.0025 },
      tier_1: { volume: 1_000_000, maker_rebate: -0.002 },
    },
  },
  last_updated: '2024-05-01T00:00:00Z',
};

export const RULES = {
  exchange: 'CBOE',
  rules: {
    trading_hours: { pre_market: '04:00:00', regular: '09:30:00-16:00:00', after_hours: '16:00:00-20:00:00' },
    tick_size: 0.01,
    lot_size: 100,
    circuit_breakers: { level_1: 0.07, level_2: 0.13, level_3: 0.2 },
  },
  effective_date: '2024-02-01',
  last_updated: '2024-05-02T00:00:00Z',
};

export const ORDER_TYPES = {
  exchange: 'IEX',
  order_types: [
    { type: 'LIMIT', description: 'Buy or sell at a price, or better', supported: true },
    { type: 'MARKET', description: 'At the best price, "now"', supported: true },
    { type: 'FOK', description: 'Fill\nor kill', supported: false },
  ],
  last_updated: '2024-05-03T00:00:00Z',
};

/** A fresh temporary directory for each test of the enclosing file. Read `.current` inside tests. */
export function useTempDir(): { current: TempDir } {
  const handle = {} as { current: TempDir };
  beforeEach(async () => {
    handle.current = await tempDir();
  });
  afterEach(async () => {
    await handle.current.remove();
  });
  return handle;
}
