import { describe, expect, it } from 'vitest';
import type { FeeScheduleResult, HistoricalFeeSchedules } from '../../src/api/types.js';
import { MemoryStream } from '../unit/output/helpers.js';
import { renderExchangeView } from '../../src/output/views/index.js';
import { displayWidth } from '../../src/output/text-width.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { sendJson, useRecordingServers } from '../helpers/recording-server.js';

/*
 * What an analyst sees at a terminal of 60, 80, 100 or 200 columns: the results table keeps
 * its most telling columns and never cuts an amount, a date or an identifier, or turns
 * vertical; the exchange tables and `filters` read at 80 columns; an empty table draws nothing.
 */

const sandbox = useSandbox({ records: 650 });
const startServer = useRecordingServers();
const serviceEnv = () => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key });

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
/** A line across the table under a row, of no cells: the row's detail. */
const isDetail = (line: string): boolean => line.startsWith('│') && line.split('│').length === 3;
/** The data rows of a grid, as the cells of each line. */
const rowCells = (text: string): string[][] =>
  linesOf(text)
    .filter((line) => line.startsWith('│') && !isDetail(line))
    .slice(1)
    .map((line) => line.split('│').slice(1, -1).map((cell) => cell.trim()));
/** Each row's detail, its lines joined. */
const detailsOf = (text: string): string[] => {
  const details: string[] = [];
  for (const line of linesOf(text).filter((candidate) => candidate.startsWith('│')).slice(1)) {
    if (!isDetail(line)) {
      if (line.split('│')[1]?.trim() !== '') details.push('');
      continue;
    }
    details[details.length - 1] = `${details.at(-1) ?? ''} ${line.slice(1, -1).trim()}`.trim();
  }
  return details;
};
/** What a record's detail line says: the charge type, basis, symbol and volume tier it has. */
const detailOf = (record: FeeScheduleResult): string =>
  ([['charge type', record.fee_charge_type], ['basis', record.fee_basis], ['symbol', record.fee_symbol], ['volume', record.fee_monthly_volume]] as const)
    .filter(([, value]) => value)
    .map(([label, value]) => `${label} ${value}`)
    .join(' ');

/** A line of the vertical layout: the label, then the whole value. */
const labelLine = (label: string, value: string): RegExp => new RegExp(`^${label} {2,}${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');

const RESULTS = ['results', '--page-size', '20'];
const SIX = ['Exchange', 'Type', 'Category', 'Action', 'Participant', 'Amount'];

describe('mkt results on a terminal', () => {
  // In this process, on a stdout shaped as a terminal of each width: the layouts are the point,
  // and terminal.test shows that mkt takes its width from a real terminal.
  it('at 60 columns: the vertical layout, one block per record, every value whole', async () => {
    const records = await json<FeeScheduleResult[]>(RESULTS);
    const screen = await onTty(RESULTS, 60);
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

  it.each([80, 100])('at %i columns: the six columns that say what a fee is, amounts and exchanges whole', async (width) => {
    const records = await json<FeeScheduleResult[]>(RESULTS);
    const screen = await onTty(RESULTS, width);
    fitsWithin(screen, width);
    expect(headers(screen)).toEqual(SIX);
    const rows = rowCells(screen);
    expect(rows.map((cells) => cells[5])).toEqual(records.map((record) => record.fee_amount));
    expect(rows.map((cells) => cells[0])).toEqual(records.map((record) => record.exchange_name));
    // Issue 39, point 4: under each row, what else tells it apart.
    expect(detailsOf(screen).map((detail) => detail.replaceAll(' · ', ' '))).toEqual(records.map(detailOf));
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

  it('at 200 columns: every default column, the scrape time whole', async () => {
    const records = await json<FeeScheduleResult[]>(RESULTS);
    const screen = await onTty(RESULTS, 200);
    fitsWithin(screen, 200);
    expect(headers(screen)).toEqual(['Exchange', 'Type', 'Category', 'Action', 'Participant', 'Symbol type', 'Amount', 'Scraped']);
    expect(screen).not.toContain('…');
    expect(rowCells(screen).map((cells) => cells[7])).toEqual(records.map((record) => record.scraped_time));
  });

  it('--columns id,fee_amount,scraped_time,version_id: exactly those, under their short labels, whole; vertical until 200 columns', async () => {
    const args = ['results', '--page-size', '5', '--columns', 'id,fee_amount,scraped_time,version_id'];
    const records = await json<FeeScheduleResult[]>(args);
    for (const width of [60, 80, 100, 200]) {
      const screen = await onTty(args, width);
      fitsWithin(screen, width);
      expect(screen).not.toContain('…');
      if (width === 200) expect(headers(screen)).toEqual(['ID', 'Amount', 'Scraped', 'Version']);
      else expect(screen).toMatch(/^─\[ record 1 \]─+\nID {2,}\S+\nAmount {2,}\S+\nScraped {2,}\S+\nVersion {2,}\S+$/m);
      for (const record of records) for (const value of [record.id, record.fee_amount, record.scraped_time, record.version_id]) expect(screen).toContain(value);
    }
  });
});

describe('line items alike in the six columns (issue 39, point 4)', () => {
  /** One line item, and four more that differ from it in one field each. */
  const ITEM: FeeScheduleResult = {
    id: 'a', exchange_name: 'KRX', fee_type: 'Equity', fee_category: 'Port Fees And Other Services', fee_charge_type: 'Per Share',
    fee_amount: '$0.0019', fee_action: 'Other', fee_action_details: null, fee_basis: 'Per side', fee_notes: null, fee_reference: null,
    fee_participant: 'All', fee_participant_details: null, fee_monthly_volume: null, fee_monthly_volume_criteria: null,
    fee_symbol_classification: 'All', fee_symbol_type: 'N/A', fee_trade_type: null, fee_symbol: null, fee_excluded_symbols: null,
    fee_conditions: null, fee_exclusions: null, fee_extra_info: null, version_id: 'v', scraped_time: '2025-06-20T17:07:48+00:00',
    created_on: '2025-06-20T17:10:00',
  };
  const ITEMS: FeeScheduleResult[] = [
    ITEM,
    { ...ITEM, id: 'b', fee_charge_type: 'Per Contract' },
    { ...ITEM, id: 'c', fee_basis: 'Per million notional' },
    { ...ITEM, id: 'd', fee_symbol: 'AAPL, MSFT, NVDA' },
    { ...ITEM, id: 'e', fee_monthly_volume: '≥ 0.30% TCV' },
  ];
  const serve = async () => {
    const page = { success: true, message: 'ok', data: ITEMS, total_records: 5, page_size: 20, total_pages: 1, current_page: 0, query_time: 0.001, disable_jsonable_encoder: false };
    const server = await startServer((_request, response) => sendJson(response, 200, page));
    return { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' };
  };

  /** A table's rows, each followed by its detail. */
  const table = (rule: (left: string, middle: string, right: string) => string, head: string, row: string, details: string[]): string[] => [
    rule('┌', '┬', '┐'),
    head,
    rule('├', '┼', '┤'),
    ...details.flatMap((detail) => [row, detail]),
    rule('└', '┴', '┘'),
  ];
  const ruleOf = (widths: number[]) => (left: string, middle: string, right: string) => `${left}${widths.map((width) => '─'.repeat(width + 2)).join(middle)}${right}`;
  const DETAILS = [
    'charge type Per Share · basis Per side',
    'charge type Per Contract · basis Per side',
    'charge type Per Share · basis Per million notional',
    'charge type Per Share · basis Per side · symbol AAPL, MSFT, NVDA',
    'charge type Per Share · basis Per side · volume ≥ 0.30% TCV',
  ];
  const detailLine = (detail: string, width: number) => `│   ${detail.padEnd(width - 6)} │`;

  it.each([
    [
      100,
      table(
        ruleOf([8, 6, 15, 6, 11, 7, 25]),
        '│ Exchange │ Type   │ Category        │ Action │ Participant │ Amount  │ Scraped                   │',
        '│ KRX      │ Equity │ Port Fees And … │ Other  │ All         │ $0.0019 │ 2025-06-20T17:07:48+00:00 │',
        DETAILS.map((detail) => detailLine(detail, 100)),
      ),
    ],
    [
      80,
      table(
        ruleOf([8, 6, 23, 6, 11, 7]),
        '│ Exchange │ Type   │ Category                │ Action │ Participant │ Amount  │',
        '│ KRX      │ Equity │ Port Fees And Other Se… │ Other  │ All         │ $0.0019 │',
        DETAILS.map((detail) => detailLine(detail, 80)),
      ),
    ],
    [
      60,
      [
        '─[ record 1 ]────────────────────────────',
        'Exchange     KRX',
        'Type         Equity',
        'Category     Port Fees And Other Services',
        'Action       Other',
        'Participant  All',
        'Symbol type  N/A',
        'Amount       $0.0019',
        'Scraped      2025-06-20T17:07:48+00:00',
        'Charge type  Per Share',
        'Basis        Per side',
        'Symbol',
        'Volume',
        '─[ record 2 ]────────────────────────────',
      ],
    ],
  ])('at %i columns they differ in what the table shows', async (width, expected) => {
    const run = await runInProcess(['results', '--no-color'], { env: await serve(), stdout: { isTTY: true, columns: width } });
    expect(run.code).toBe(0);
    expect(linesOf(run.stdout).slice(0, expected.length)).toEqual(expected);
  });

  it('seven --columns fit 100 columns under their short labels; CSV keeps the field names', async () => {
    const args = ['results', '--no-color', '--columns', 'exchange_name,fee_type,fee_charge_type,fee_basis,fee_symbol,fee_monthly_volume,fee_amount'];
    const env = await serve();
    const run = await runInProcess(args, { env, stdout: { isTTY: true, columns: 100 } });
    expect(run.code).toBe(0);
    expect(linesOf(run.stdout)).toEqual([
      '┌──────────┬────────┬──────────────┬────────────────────┬──────────────────┬─────────────┬─────────┐',
      '│ Exchange │ Type   │ Charge type  │ Basis              │ Symbol           │ Volume      │ Amount  │',
      '├──────────┼────────┼──────────────┼────────────────────┼──────────────────┼─────────────┼─────────┤',
      '│ KRX      │ Equity │ Per Share    │ Per side           │                  │             │ $0.0019 │',
      '│ KRX      │ Equity │ Per Contract │ Per side           │                  │             │ $0.0019 │',
      '│ KRX      │ Equity │ Per Share    │ Per million notio… │                  │             │ $0.0019 │',
      '│ KRX      │ Equity │ Per Share    │ Per side           │ AAPL, MSFT, NVDA │             │ $0.0019 │',
      '│ KRX      │ Equity │ Per Share    │ Per side           │                  │ ≥ 0.30% TCV │ $0.0019 │',
      '└──────────┴────────┴──────────────┴────────────────────┴──────────────────┴─────────────┴─────────┘',
    ]);
    const csv = await runInProcess([...args, '-f', 'csv'], { env });
    expect(csv.stdout.split('\r\n')[0]).toBe('exchange_name,fee_type,fee_charge_type,fee_basis,fee_symbol,fee_monthly_volume,fee_amount');
  });

  it('--parse-amounts: the parsed value and unit after the amount', async () => {
    const run = await runInProcess(['results', '--no-color', '--parse-amounts'], { env: await serve(), stdout: { isTTY: true, columns: 100 } });
    expect(run.code).toBe(0);
    expect(linesOf(run.stdout)).toEqual(
      table(
        ruleOf([8, 6, 27, 6, 11, 7, 6, 4]),
        '│ Exchange │ Type   │ Category                    │ Action │ Participant │ Amount  │  Value │ Unit │',
        '│ KRX      │ Equity │ Port Fees And Other Servic… │ Other  │ All         │ $0.0019 │ 0.0019 │ USD  │',
        DETAILS.map((detail) => detailLine(detail, 100)),
      ),
    );
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
        ? linesOf(screen).filter((line) => line.startsWith('Amount')).map((line) => line.replace(/^Amount +/, ''))
        : rowCells(screen).map((cells) => cells[0]);
      expect(amounts).toEqual(records.map((record) => record.fee_amount));
      if (vertical) expect(screen).not.toContain('…');
      else expect(headers(screen)).toEqual(['Amount', 'Notes', 'Conditions', 'Exclusions', 'Extra info']);
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
      const lines = block.slice(block.indexOf('Volume criteria')).trimEnd().split('\n');
      if (lines.length > 1) wrapped++;
      const value = lines.map((line) => line.replace(/^Volume criteria/, '').trim()).join(' ').trim();
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
