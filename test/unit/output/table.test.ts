import { describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELDS } from '../../../src/api/fields.js';
import type { OutputTarget, TableColumn } from '../../../src/output/exporter.js';
import { cellText, fitColumnWidths, gridLines } from '../../../src/output/grid.js';
import { displayWidth, truncateToWidth, wrapToWidth } from '../../../src/output/text-width.js';
import { renderExchangeView } from '../../../src/output/views/index.js';
import { writeDataset, type WriteOptions } from '../../../src/output/write.js';
import { AWKWARD_TEXTS, awkwardResults, FEES, from, MemoryStream, options, ORDER_TYPES, RULES } from './helpers.js';

const ESC = '\u001b';

async function table(
  stdout: MemoryStream,
  overrides: Partial<WriteOptions> & { select?: string[]; tableColumns?: TableColumn[]; records?: number } = {},
): Promise<string> {
  const { select, tableColumns, records, ...rest } = overrides;
  await writeDataset(
    { shape: 'list', batches: from(awkwardResults(records)), columns: FEE_SCHEDULE_RESULT_FIELDS, select, tableColumns },
    options({ format: 'table', stdout, ...rest }),
  );
  return stdout.text();
}

function view(resource: 'fees' | 'rules' | 'orderTypes' | 'historical', body: unknown, target: Partial<OutputTarget> = {}) {
  const stream = new MemoryStream();
  return renderExchangeView(resource, body, { stream, isTTY: false, color: false, ...target }).then((rendered) => ({ rendered, text: stream.text() }));
}

describe('table', () => {
  it('off a terminal: nothing truncated, no colour, control characters defused', async () => {
    const text = await table(new MemoryStream(false), { select: ['id', 'fee_notes'], color: false });
    expect(text).not.toContain(ESC);
    expect(text).not.toContain('…');
    const longNote = awkwardResults().find((record) => record.fee_notes?.startsWith('long '))?.fee_notes ?? '';
    expect(longNote.length).toBeGreaterThan(1000);
    expect(text).toContain(longNote.replaceAll('\n', '↵'));
    expect(text).toContain('carriage↵return line feed');
    expect(text).toContain('bare↵carriage return');
    expect(text).toContain('ｆｕｌｌｗｉｄｔｈ ＡＢＣ');
    expect(text).not.toContain('\r');
    expect(text).not.toContain('\t');
  });

  it('on a terminal: fits the width, cuts with …, one line per row', async () => {
    const records = awkwardResults();
    const text = await table(new MemoryStream(true, 80), { select: ['id', 'fee_notes', 'fee_amount'] });
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(text).toContain('…');
    // header, its rule, the top and bottom borders, and one line per record
    expect(lines).toHaveLength(records.length + 4);
  });

  it('colours the header only when colour is allowed', async () => {
    // Each awkward text once in every field, not twice: a table of every field at a terminal wraps each long one.
    const records = AWKWARD_TEXTS.length;
    expect(await table(new MemoryStream(true, 200), { color: true, records })).toContain(`${ESC}[1m`);
    expect(await table(new MemoryStream(true, 200), { color: false, records })).not.toContain(ESC);
  });

  it('shows tableColumns under their headers by default, and --columns under the field names instead', async () => {
    const header = (text: string) => text.split('\n')[1]?.split('│').map((cell) => cell.trim()).filter(Boolean);
    const tableColumns = [
      { name: 'exchange_name', header: 'Exchange' },
      { name: 'fee_amount', header: 'Amount' },
    ];
    expect(header(await table(new MemoryStream(), { tableColumns }))).toEqual(['Exchange', 'Amount']);
    expect(header(await table(new MemoryStream(), { tableColumns, select: ['fee_type', 'id'] }))).toEqual(['fee_type', 'id']);
  });

  it('flattens order types into one row each', async () => {
    const stdout = new MemoryStream();
    await writeDataset({ shape: 'object', batches: from([ORDER_TYPES]) }, options({ format: 'table', stdout }));
    const rows = stdout.text().split('\n').filter((line) => line.startsWith('│ IEX'));
    expect(rows.map((row) => row.split('│')[2]?.trim())).toEqual(['LIMIT', 'MARKET', 'FOK']);
  });
});

describe('fitColumnWidths', () => {
  // A row takes its text widths plus, per column, a border and a space either side, plus one border.
  it('leaves widths alone when they fit', () => {
    expect(fitColumnWidths([10, 20], [4, 4], 37)).toEqual([10, 20]);
    expect(fitColumnWidths([10, 20], [4, 4], 36)).toEqual([10, 19]);
  });

  it('narrows the widest columns first to fill the width exactly', () => {
    expect(fitColumnWidths([8, 40, 60], [4, 4, 4], 60)).toEqual([8, 21, 21]);
    expect(fitColumnWidths([8, 40, 60], [4, 4, 4], 61)).toEqual([8, 22, 21]);
  });

  it('keeps each column at its minimum: a whole column (minimum = natural) never narrows', () => {
    expect(fitColumnWidths([8, 40, 60], [8, 40, 4], 70)).toEqual([8, 40, 12]);
  });

  it('gives up when even the minimums do not fit', () => {
    expect(fitColumnWidths([30, 30, 30], [4, 4, 4], 10)).toBeUndefined();
  });
});

describe('displayWidth', () => {
  it.each([
    ['abc', 3],
    ['ｆｕｌｌ', 8],
    ['🚀', 2],
    ['é', 1],
    ['e\u0301', 1],
    ['✓ ✗', 3],
    ['👍🏽', 2],
  ])('%j takes %i cells', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe('truncateToWidth', () => {
  it.each([
    ['abcdef', 6, 'abcdef'],
    ['abcdefg', 6, 'abcde…'],
    ['ｆｕｌｌ', 6, 'ｆｕ…'],
    ['🚀🚀🚀', 5, '🚀🚀…'],
    ['e\u0301e\u0301e\u0301', 2, 'e\u0301…'],
  ])('cuts %j to %i cells as %j', (text, width, cut) => {
    expect(truncateToWidth(text, width)).toBe(cut);
    expect(displayWidth(cut)).toBeLessThanOrEqual(width);
  });

  it.each([
    ['≥ 50,000,000 shares ADV', 8, '≥ …'],
    ['≥ 50,000,000 shares ADV', 16, '≥ 50,000,000 sh…'],
    ['Excludes securities priced below $1.00', 37, 'Excludes securities priced below …'],
    ['$0.0030', 5, '…'],
  ])('never splits a word holding a digit: %j at %i cells is %j', (text, width, cut) => {
    expect(truncateToWidth(text, width)).toBe(cut);
  });
});

describe('wrapToWidth', () => {
  it.each([
    ['Port Fees And Other Services', 28, 0, ['Port Fees And Other Services']],
    ['Port Fees And Other Services', 18, 0, ['Port Fees And', 'Other Services']],
    ['Port Fees And Other Services', 18, 2, ['Port Fees And', '  Other Services']],
    ['2025-06-25T23:06:49.121168+00:00', 12, 0, ['2025-06-25T2', '3:06:49.1211', '68+00:00']],
    ['two  spaces kept', 12, 0, ['two  spaces', 'kept']],
  ])('wraps %j to %i cells (hanging %i) as %j', (text, width, hang, lines) => {
    expect(wrapToWidth(text, width, hang)).toEqual(lines);
  });
});

describe('exchange views', () => {
  it('fees: the summary, then tiers by volume, rates as the service wrote them', async () => {
    const { rendered, text } = await view('fees', FEES);
    expect(rendered).toBe(true);
    expect(text).toMatch(/│ Maker fee\s+│ -0\.002 \(rebate\)\s+│/);
    expect(text).toMatch(/│ Taker fee\s+│ 0\.003\s+│/);
    const tiers = text.split('\n').filter((line) => /│ tier_\d/.test(line));
    expect(tiers.map((line) => line.split('│').map((cell) => cell.trim()).filter(Boolean))).toEqual([
      ['tier_1', '1000000', '-0.002'],
      ['tier_2', '5000000', '-0.0025'],
    ]);
  });

  it('fees on a terminal: grouped digits, and rebates in green when colour is allowed', async () => {
    const { text } = await view('fees', FEES, { isTTY: true, width: 100, color: true });
    expect(text).toContain('5,000,000');
    expect(text).toContain(`${ESC}[32m-0.002 (rebate)${ESC}[0m`);
  });

  it('rules: trading hours, tick and lot size, circuit breakers as percentages', async () => {
    const { text } = await view('rules', RULES);
    for (const [label, value] of [
      ['Regular hours', '09:30:00-16:00:00'],
      ['Tick size', '0.01'],
      ['Lot size', '100'],
      ['Circuit breaker level 1', '7%'],
      ['Circuit breaker level 2', '13%'],
      ['Circuit breaker level 3', '20%'],
    ]) {
      expect(text).toMatch(new RegExp(`│ ${label}\\s+│ ${value}\\s+│`));
    }
  });

  it('order types: supported ✓ or ✗', async () => {
    const { text } = await view('orderTypes', ORDER_TYPES);
    expect(text).toMatch(/│ LIMIT\s+│ ✓\s+│/);
    expect(text).toMatch(/│ FOK\s+│ ✗\s+│ Fill↵or kill\s+│/);
  });

  it('declines a resource without a view, or a body not of its shape', async () => {
    expect(await view('historical', [FEES])).toEqual({ rendered: false, text: '' });
    expect(await view('fees', { exchange: 'NYSE' })).toEqual({ rendered: false, text: '' });
    expect(await view('orderTypes', RULES)).toEqual({ rendered: false, text: '' });
  });
});

describe('exchange views, when the body is not quite of their shape', () => {
  it.each([
    ['fees', { ...FEES, effective_date: null }],
    ['fees', { ...FEES, fee_schedule: { ...FEES.fee_schedule, tier_thresholds: { tier_1: null } } }],
    ['rules', { ...RULES, rules: { ...RULES.rules, trading_hours: { ...RULES.rules.trading_hours, regular: null } } }],
    ['orderTypes', { ...ORDER_TYPES, order_types: [null] }],
  ] as const)('%s with a null leaf falls back to the generic table', async (resource, body) => {
    expect(await view(resource, body, { isTTY: true, width: 100 })).toEqual({ rendered: false, text: '' });
  });

  it('fees on a terminal: a maker rebate of 0 shows as 0, not -0', async () => {
    const fees = { ...FEES, fee_schedule: { ...FEES.fee_schedule, tier_thresholds: { tier_1: { volume: 1, maker_rebate: 0 } } } };
    const { text } = await view('fees', fees, { isTTY: true, width: 100 });
    expect(text).toMatch(/│ tier_1\s+│\s+1 │\s+0 │/);
  });
});

describe('cellText', () => {
  it('defuses C0 and C1 control characters, the one-character CSI U+009B included', () => {
    expect(cellText('a\u001b[31mb\u0085c\u009b31md\u009fe\u00a0f')).toBe('a\uFFFD[31mb\uFFFDc\uFFFD31md\uFFFDe\u00a0f');
  });

  // Issue 35, point 6: what serverText makes visible in a message, a table cell defuses too.
  it('defuses bidi overrides and isolates, and breaks lines at U+2028 and U+2029', () => {
    expect(cellText('NYSE\u202eXIUQ\u202c \u2066a\u2069\u2028b\u2029c')).toBe('NYSE\uFFFDXIUQ\uFFFD \uFFFDa\uFFFD↵b↵c');
  });
});

describe('the detail line under a row (issue 39, point 4)', () => {
  const columns = [{ header: 'Name' }, { header: 'Amount', fit: 'whole' as const }];
  const texts = [['a', '$1'], ['b', '$2']];
  const detail = { labels: ['Charge type', 'Symbol'], texts: [['Per Share', 'AAPL, MSFT, NVDA, TSLA, AMZN, GOOG'], ['', '']] };
  const lines = (target: Partial<OutputTarget>) => [...gridLines(columns, { texts, detail }, { stream: new MemoryStream(), isTTY: true, color: false, width: 20, ...target })];

  it('says the fields with a value, labelled, across the table; a field wider than a line wraps, the next starts a line; none, no line', () => {
    expect(lines({})).toEqual([
      '┌──────┬────────┐',
      '│ Name │ Amount │',
      '├──────┼────────┤',
      '│ a    │ $1     │',
      '│   charge type │',
      '│   Per Share   │',
      '│   symbol      │',
      '│   AAPL, MSFT, │',
      '│   NVDA, TSLA, │',
      '│   AMZN, GOOG  │',
      '│ b    │ $2     │',
      '└──────┴────────┘',
    ]);
  });

  it('is dim where colour is allowed', () => {
    expect(lines({ color: true })[4]).toBe(`│   ${ESC}[2mcharge type${ESC}[0m │`);
  });
});

describe("a 2026 record's relationships (issue 38, point 2)", () => {
  const relationships = {
    footnotes: [{ text: 'Rebates are paid monthly.' }, { text: 7 }],
    definitions: [{ term: 'ADV', text: 'average daily volume' }],
  };
  const columns = ['record_id', 'fee_amount', 'relationships'].map((name) => ({ name, kind: 'string' as const, nullable: true }));

  it('shows the footnotes and definitions one a line in the vertical layout, what is not text left out', async () => {
    const stdout = new MemoryStream(true, 30);
    await writeDataset(
      { shape: 'list', batches: from([{ record_id: 'r-1', fee_amount: '$0.50', relationships }]), columns },
      options({ format: 'table', stdout }),
    );
    expect(stdout.text()).toBe([
      '─[ record 1 ]─────────────────',
      'record_id      r-1',
      'fee_amount     $0.50',
      'relationships  footnote:',
      '                 Rebates are',
      '                 paid monthly.',
      '               ADV: average',
      '                 daily volume',
      '',
    ].join('\n'));
  });

  it('writes any other value of the field as its JSON text', async () => {
    const stdout = new MemoryStream(false);
    await writeDataset({ shape: 'list', batches: from([{ record_id: 'r-1', fee_amount: '$1', relationships: { footnotes: [] } }]), columns }, options({ format: 'table', stdout }));
    expect(stdout.text()).toContain('│ {"footnotes":[]} │');
  });
});
