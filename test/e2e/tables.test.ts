import { describe, expect, it } from 'vitest';
import type { FeeScheduleResult, HistoricalFeeSchedules } from '../../src/api/types.js';
import { MemoryStream } from '../unit/output/helpers.js';
import { renderExchangeView } from '../../src/output/views/index.js';
import { displayWidth } from '../../src/output/text-width.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { hasScript, runOnTerminal as runOnPty } from '../helpers/terminal.js';
import { useSandbox } from '../helpers/sandbox.js';

/*
 * What an analyst sees at a terminal of 60, 80, 100 or 200 columns: the results table keeps
 * its most telling columns and never cuts an amount, a date or an identifier, or turns
 * vertical; the exchange tables and `filters` read at 80 columns; an empty table draws nothing.
 */

const onTerminal = hasScript ? it : it.skip;
const SKIPPED = hasScript ? '' : ' (SKIPPED: script from util-linux is not installed)';

const sandbox = useSandbox({ records: 650 });
const serviceEnv = () => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key });

/** What a terminal `columns` wide shows of `mkt args…`, colour left out. */
async function onPty(args: string[], columns: number): Promise<string> {
  const output = await runOnPty([...args, '--no-color'], { columns, env: serviceEnv() });
  return output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

/** stdout of `mkt args…` in process, as a terminal `columns` wide. */
async function onTty(args: string[], columns: number): Promise<string> {
  const run = await runInProcess([...args, '--no-color'], { env: serviceEnv(), stdout: { isTTY: true, columns } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

async function json<T>(args: string[]): Promise<T> {
  const run = await runInProcess([...args, '-f', 'json'], { env: serviceEnv() });
  return JSON.parse(run.stdout) as T;
}

const linesOf = (text: string): string[] => text.trimEnd().split('\n');
const fitsWithin = (text: string, width: number): void => {
  for (const line of linesOf(text)) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
};
/** The header cells of the first table drawn. */
const headers = (text: string): string[] => {
  const line = linesOf(text).find((candidate) => candidate.startsWith('│')) ?? '';
  return line.split('│').map((cell) => cell.trim()).filter(Boolean);
};
/** Every cell's text in reading order, borders and padding gone: what a wrapped value reads as. */
const flatText = (text: string): string => text.replace(/[│┌┐└┘├┤┬┴┼─]/g, ' ').replace(/\s+/g, ' ');
/** The data rows of a grid, as the cells of each line. */
const rowCells = (text: string): string[][] =>
  linesOf(text)
    .filter((line) => line.startsWith('│'))
    .slice(1)
    .map((line) => line.split('│').slice(1, -1).map((cell) => cell.trim()));

/** A line of the vertical layout: the label, then the whole value. */
const labelLine = (label: string, value: string): RegExp => new RegExp(`^${label} {2,}${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');

const RESULTS = ['results', '--page-size', '20'];
const SIX = ['Exchange', 'Type', 'Category', 'Action', 'Participant', 'Amount'];

describe(`mkt results on a terminal${SKIPPED}`, () => {
  onTerminal('at 60 columns: the vertical layout, one block per record, every value whole', async () => {
    const records = await json<FeeScheduleResult[]>(RESULTS);
    const screen = await onPty(RESULTS, 60);
    fitsWithin(screen, 60);
    expect(screen).not.toContain('┌');
    expect(screen).not.toContain('…');
    const lines = linesOf(screen);
    expect(lines.filter((line) => /^─\[ record \d+ \]─+$/.test(line))).toHaveLength(records.length);
    const first = lines.findIndex((line) => line.startsWith('─[ record 1 ]'));
    expect(lines.slice(first + 1, first + 9).map((line) => line.split(/ {2,}/)[0])).toEqual([...SIX.slice(0, 5), 'Symbol type', 'Amount', 'Scraped']);
    for (const record of records) {
      expect(screen).toMatch(labelLine('Amount', record.fee_amount));
      expect(screen).toMatch(labelLine('Scraped', record.scraped_time));
      expect(screen).toMatch(labelLine('Exchange', record.exchange_name));
    }
  });

  onTerminal.each([80, 100])('at %i columns: the six columns that say what a fee is, amounts and exchanges whole', async (width) => {
    const records = await json<FeeScheduleResult[]>(RESULTS);
    const screen = await onPty(RESULTS, width);
    fitsWithin(screen, width);
    expect(headers(screen)).toEqual(SIX);
    const rows = rowCells(screen);
    expect(rows.map((cells) => cells[5])).toEqual(records.map((record) => record.fee_amount));
    expect(rows.map((cells) => cells[0])).toEqual(records.map((record) => record.exchange_name));
  });

  it('at 80 columns: an amount of several words wraps at its spaces onto more lines of its cell, never cut', async () => {
    // A page with `GBP 120.00 per port per month` or the like on it.
    const long = (record: FeeScheduleResult) => record.fee_amount.includes(' per ');
    let page = 0;
    let records: FeeScheduleResult[] = [];
    for (; page < 6; page++) {
      records = await json<FeeScheduleResult[]>(['results', '--page-size', '100', '--page-number', String(page)]);
      if (records.some(long)) break;
    }
    const screen = await onTty(['results', '--page-size', '100', '--page-number', String(page)], 80);
    fitsWithin(screen, 80);
    expect(headers(screen)).toEqual(SIX);
    // A row goes on over the lines whose exchange cell is empty.
    const amounts: string[][] = [];
    for (const cells of rowCells(screen)) {
      if (cells[0] !== '') amounts.push([cells[5] ?? '']);
      else amounts.at(-1)?.push(cells[5] ?? '');
    }
    expect(amounts.map((lines) => lines.join(' ').trim())).toEqual(records.map((record) => record.fee_amount));
    expect(amounts.some((lines) => lines.length > 1)).toBe(true);
  });

  onTerminal('at 200 columns: every default column, the scrape time whole', async () => {
    const records = await json<FeeScheduleResult[]>(RESULTS);
    const screen = await onPty(RESULTS, 200);
    fitsWithin(screen, 200);
    expect(headers(screen)).toEqual(['Exchange', 'Type', 'Category', 'Action', 'Participant', 'Symbol type', 'Amount', 'Scraped']);
    expect(screen).not.toContain('…');
    expect(rowCells(screen).map((cells) => cells[7])).toEqual(records.map((record) => record.scraped_time));
  });

  onTerminal('--columns id,fee_amount,scraped_time,version_id: exactly those, under their names, whole; vertical until 200 columns', async () => {
    const args = ['results', '--page-size', '5', '--columns', 'id,fee_amount,scraped_time,version_id'];
    const records = await json<FeeScheduleResult[]>(args);
    for (const width of [60, 80, 100, 200]) {
      const screen = await onPty(args, width);
      fitsWithin(screen, width);
      expect(screen).not.toContain('…');
      if (width === 200) expect(headers(screen)).toEqual(['id', 'fee_amount', 'scraped_time', 'version_id']);
      else expect(screen).toMatch(/^─\[ record 1 \]─+\nid {2,}\S+\nfee_amount {2,}\S+\nscraped_time {2,}\S+\nversion_id {2,}\S+$/m);
      for (const record of records) for (const value of [record.id, record.fee_amount, record.scraped_time, record.version_id]) expect(screen).toContain(value);
    }
  });
});

describe('mkt results, in process as a terminal', () => {
  it('many --columns at 60, 80, 100 and 200 columns: amounts always whole, free text cut only in a table', async () => {
    const args = ['results', '--page-size', '10', '--columns', 'fee_amount,fee_notes,fee_conditions,fee_exclusions,fee_extra_info'];
    const records = await json<FeeScheduleResult[]>(args);
    for (const width of [60, 80, 100, 200]) {
      const screen = await onTty(args, width);
      fitsWithin(screen, width);
      const vertical = screen.startsWith('─[ record 1 ]');
      const amounts = vertical
        ? linesOf(screen).filter((line) => line.startsWith('fee_amount')).map((line) => line.replace(/^fee_amount +/, ''))
        : rowCells(screen).map((cells) => cells[0]);
      expect(amounts).toEqual(records.map((record) => record.fee_amount));
      if (vertical) expect(screen).not.toContain('…');
      else expect(headers(screen)).toEqual(['fee_amount', 'fee_notes', 'fee_conditions', 'fee_exclusions', 'fee_extra_info']);
    }
  });

  it('the vertical layout wraps a long value to the width, leaving nothing out', async () => {
    const args = ['results', '--page-size', '5', '--columns', 'id,version_id,fee_monthly_volume_criteria'];
    const records = await json<FeeScheduleResult[]>(args);
    const screen = await onTty(args, 60);
    fitsWithin(screen, 60);
    const blocks = screen.split(/^─\[ record \d+ \]─*\n/m).slice(1);
    expect(blocks).toHaveLength(records.length);
    let wrapped = 0;
    for (const [index, block] of blocks.entries()) {
      const lines = block.slice(block.indexOf('fee_monthly_volume_criteria')).trimEnd().split('\n');
      if (lines.length > 1) wrapped++;
      const value = lines.map((line) => line.replace(/^fee_monthly_volume_criteria/, '').trim()).join(' ').trim();
      expect(value).toBe(records[index]?.fee_monthly_volume_criteria ?? '');
    }
    expect(wrapped).toBeGreaterThan(0);
  });

  it('no records: nothing at all on stdout, on a terminal or a pipe', async () => {
    const args = ['results', '--exchange-name', 'NO_SUCH_EXCHANGE'];
    expect((await runInProcess([...args, '-f', 'json'], { env: serviceEnv() })).stdout).toBe('[]\n');
    const onTerminal = await runInProcess(args, { env: serviceEnv(), stdout: { isTTY: true, columns: 80 } });
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stdout).toBe('');
    expect((await runInProcess([...args, '-f', 'table'], { env: serviceEnv() })).stdout).toBe('');
  });

  it('on a pipe nothing is cut and nothing turns vertical', async () => {
    const run = await runInProcess(['results', '--page-size', '5', '-f', 'table'], { env: serviceEnv() });
    expect(headers(run.stdout)).toEqual(['Exchange', 'Type', 'Category', 'Action', 'Participant', 'Symbol type', 'Amount', 'Scraped']);
    expect(run.stdout).not.toContain('…');
  });
});

describe('the exchange tables at 80 columns', () => {
  it('fees NYSE: volumes grouped, rates as the service wrote them, nothing cut', async () => {
    const body = await json<{ fee_schedule: { maker_fee: number; taker_fee: number; tier_thresholds: Record<string, { volume: number; maker_rebate: number }> } }>(['fees', 'NYSE']);
    const screen = await onTty(['fees', 'NYSE'], 80);
    fitsWithin(screen, 80);
    expect(screen).not.toContain('…');
    expect(screen).toMatch(new RegExp(`│ Maker fee +│ ${JSON.stringify(body.fee_schedule.maker_fee)}`));
    expect(screen).toMatch(new RegExp(`│ Taker fee +│ ${JSON.stringify(body.fee_schedule.taker_fee)}`));
    for (const tier of Object.values(body.fee_schedule.tier_thresholds)) {
      expect(screen).toMatch(new RegExp(`│ +${tier.volume.toLocaleString('en-US')} │ +${JSON.stringify(tier.maker_rebate)} │`));
    }
  });

  it('rules CBOE: the tick size as written, nothing cut, also where the values must wrap', async () => {
    const body = await json<{ rules: { tick_size: number } }>(['rules', 'CBOE']);
    const screen = await onTty(['rules', 'CBOE'], 80);
    fitsWithin(screen, 80);
    expect(screen).not.toContain('…');
    expect(screen).toMatch(new RegExp(`│ Tick size +│ ${JSON.stringify(body.rules.tick_size)} +│`));
    const narrow = await onTty(['rules', 'CBOE'], 40);
    fitsWithin(narrow, 40);
    expect(narrow).not.toContain('…');
    expect(narrow).toContain('│ Circuit breaker level 1 │');
  });

  it('order-types IEX: descriptions wrap whole', async () => {
    const body = await json<{ order_types: { type: string; description: string; supported: boolean }[] }>(['order-types', 'IEX']);
    const screen = await onTty(['order-types', 'IEX'], 80);
    fitsWithin(screen, 80);
    expect(screen).not.toContain('…');
    for (const orderType of body.order_types) {
      expect(flatText(screen)).toContain(` ${orderType.type} ${orderType.supported ? '✓' : '✗'} ${orderType.description} `);
    }
  });

  it.each([80, 100])('historical NYSE at %i columns: one row per effective date, short headers, grouped volumes', async (width) => {
    const body = await json<HistoricalFeeSchedules>(['historical', 'NYSE']);
    const screen = await onTty(['historical', 'NYSE'], width);
    fitsWithin(screen, width);
    expect(screen).not.toContain('…');
    expect(screen).not.toContain('fee_s');
    const grid = screen.slice(screen.indexOf('│ Effective'));
    expect(headers(grid)).toEqual(['Effective', 'Maker fee', 'Taker fee', 'Tier volume', 'Maker rebate', ...(width === 100 ? ['Last updated'] : [])]);
    const rows = rowCells(grid).filter((cells) => cells[0] !== '');
    expect(rows.map((cells) => cells[0])).toEqual(body.fee_schedules.map((schedule) => schedule.effective_date));
    expect(rows.map((cells) => cells[1])).toEqual(body.fee_schedules.map((schedule) => JSON.stringify(schedule.fee_schedule.maker_fee)));
    for (const schedule of body.fee_schedules) {
      for (const tier of Object.values(schedule.fee_schedule.tier_thresholds)) expect(grid).toContain(` ${tier.volume.toLocaleString('en-US')} │`);
    }
  });

  it('historical: the sandbox shape has its view; a body of another shape is written as the generic table', async () => {
    const write = async (body: unknown) => {
      const stream = new MemoryStream();
      return { rendered: await renderExchangeView('historical', body, { stream, isTTY: true, width: 80, color: false }), text: stream.text() };
    };
    expect((await write(await json<HistoricalFeeSchedules>(['historical', 'NYSE']))).rendered).toBe(true);
    expect(await write({ exchange: 'NYSE', schedules: [] })).toEqual({ rendered: false, text: '' });
    expect(await write({ exchange: 'NYSE', fee_schedules: [{ effective_date: '2024-01-01', fee_schedule: { maker_fee: 'x' } }] })).toEqual({ rendered: false, text: '' });
    expect(await write({ exchange: 'NYSE', fee_schedules: [{ effective_date: '2024-01-01', fee_schedule: { maker_fee: null, taker_fee: 1, tier_thresholds: {} }, last_updated: 'x' }] })).toEqual({ rendered: false, text: '' });
    expect(await write([{ effective_date: '2024-01-01' }])).toEqual({ rendered: false, text: '' });
  });
});

describe('mkt filters at 80 columns', () => {
  it('values wrap within their cell: every value whole, nothing cut', async () => {
    const filters = await json<{ parameter: string; flag: string; values: string[] }[]>(['filters']);
    const screen = await onTty(['filters'], 80);
    fitsWithin(screen, 80);
    expect(screen).not.toContain('…');
    expect(headers(screen)).toEqual(['parameter', 'flag', 'values']);
    const flat = flatText(screen);
    for (const filter of filters) expect(flat).toContain(` ${filter.parameter} ${filter.flag} ${filter.values.join(' ')} `);
  });
});
