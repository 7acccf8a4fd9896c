import { describe, expect, it } from 'vitest';
import { ENUM_FILTER_NAMES, ORDER_BY_VALUES, ORDER_DIR_VALUES } from '../../../src/api/filters.js';
import { RESULT_FIELD_NAMES } from '../../../src/api/fields.js';
import { SETTING_NAMES } from '../../../src/config/settings.js';
import { FORMATS } from '../../../src/output/formats.js';
import { allCommands, type CommandSpec, type OptionSpec } from '../../../src/generators/model.js';
import { valueOptions } from '../../../src/generators/shell-tables.js';
import { programSpec } from './program.js';

const program = programSpec();
const command = (path: string): CommandSpec => {
  const found = allCommands(program).find((candidate) => candidate.path.join(' ') === path);
  if (!found) throw new Error(`no command ${path}`);
  return found;
};
const option = (path: string, long: string): OptionSpec => {
  const found = command(path).options.find((candidate) => candidate.long === long);
  if (!found) throw new Error(`no ${long} in ${path}`);
  return found;
};

describe('the completion model of the program', () => {
  it('has every visible command, nested ones included, and none of the hidden ones', () => {
    expect(allCommands(program).map((spec) => spec.path.join(' '))).toEqual([
      '', 'fees', 'rules', 'order-types', 'historical', 'results', 'results get', 'exchanges', 'compare', 'diff', 'version', 'filters', 'sync', 'sql', 'export', 'tap', 'mcp',
      'auth', 'auth login', 'auth status', 'auth list', 'auth logout',
      'config', 'config get', 'config set', 'config unset', 'config list', 'config path',
      'completion', 'sandbox',
    ]);
  });

  it.each(ENUM_FILTER_NAMES)('completes every value of --%s, item by item, as mkt lists them at TAB', (name) => {
    expect(option('results', `--${name.replaceAll('_', '-')}`).value).toEqual({ kind: 'listed', command: `__${name}`, commaSeparated: true });
  });

  it('completes --order-by, --order-dir and --format from their lists', () => {
    expect(option('results', '--order-by').value).toEqual({ kind: 'choices', values: ORDER_BY_VALUES, commaSeparated: false });
    expect(option('results', '--order-dir').value).toEqual({ kind: 'choices', values: ORDER_DIR_VALUES, commaSeparated: false });
    expect(option('fees', '--format').value).toEqual({ kind: 'choices', values: FORMATS, commaSeparated: false });
  });

  it('completes profile names for --profile, cached exchanges for <exchange> and --exchange-name, and files for -o', () => {
    expect(option('results', '--profile').value).toEqual({ kind: 'listed', command: '__profiles', commaSeparated: false });
    expect(option('results', '--exchange-name').value).toEqual({ kind: 'listed', command: '__exchanges', commaSeparated: true });
    for (const path of ['fees', 'rules', 'order-types', 'historical']) {
      expect(command(path).arguments[0]?.value).toEqual({ kind: 'listed', command: '__exchanges', commaSeparated: false });
    }
    expect(option('results', '--output')).toMatchObject({ short: '-o', value: { kind: 'files' } });
  });

  it("completes --columns with each command's own fields, item by item", () => {
    expect(option('results', '--columns').value).toEqual({ kind: 'choices', values: RESULT_FIELD_NAMES, commaSeparated: true, trailingComma: true });
    expect(option('fees', '--columns').value).toMatchObject({ values: expect.arrayContaining(['exchange', 'fee_schedule.maker_fee', 'fee_schedule.tier_thresholds.volume']) });
    expect(option('rules', '--columns').value).toMatchObject({ values: expect.arrayContaining(['rules.trading_hours.regular', 'rules.circuit_breakers.level_1']) });
    expect(option('order-types', '--columns').value).toMatchObject({ values: ['exchange', 'order_types.type', 'order_types.description', 'order_types.supported', 'last_updated'] });
    expect(option('historical', '--columns').value).toMatchObject({ values: expect.arrayContaining(['fee_schedules.fee_schedule.taker_fee']) });
    expect(option('filters', '--columns').value).toEqual({ kind: 'none' });
  });

  it('completes setting names for config get, set and unset, and shells for completion', () => {
    for (const path of ['config get', 'config set', 'config unset']) {
      expect(command(path).arguments[0]?.value).toEqual({ kind: 'choices', values: SETTING_NAMES, commaSeparated: false });
    }
    const keyPlacements = ['bearer', 'header:x-service-api-access-key'];
    expect(command('config set').arguments[1]?.value).toEqual({
      kind: 'choicesAfter',
      choices: { format: FORMATS, exchanges_auth: keyPlacements, results_auth: keyPlacements },
    });
    expect(command('completion').arguments[0]?.value).toMatchObject({ values: ['bash', 'zsh', 'fish'] });
  });

  it('offers each command the global options it reads, and marks them global', () => {
    const longs = (path: string) => command(path).options.filter((spec) => spec.global).map((spec) => spec.long);
    expect(longs('results')).toEqual(expect.arrayContaining(['--format', '--output', '--profile', '--no-color']));
    expect(longs('config get')).toEqual(['--profile', '--verbose', '--no-color', '--error-format']);
    // Every command can fail, so every command takes --error-format, with its values to complete.
    expect(longs('completion')).toEqual(['--error-format']);
    expect(option('completion', '--error-format').value).toEqual({ kind: 'choices', values: ['text', 'json'], commaSeparated: false });
    expect(option('results', '--fee-type').global).toBe(false);
  });

  it('has every flag take a value everywhere or nowhere, as the scripts need; what the value is may vary by command', () => {
    const values = valueOptions(program);
    expect(values.get('-f')?.variants).toEqual(values.get('--format')?.variants);
    // mkt sync writes its summary as JSON or not at all.
    expect(values.get('--format')?.variants.map((variant) => [variant.value, variant.paths.includes('sync')])).toEqual([
      [{ kind: 'choices', values: FORMATS, commaSeparated: false }, false],
      [{ kind: 'choices', values: ['json'], commaSeparated: false }, true],
    ]);
    expect(values.has('--all')).toBe(false);
    expect(values.get('--start-date')?.variants).toEqual([{ value: { kind: 'none' }, paths: ['historical', 'results', 'sync', 'export'] }]);
    expect(values.get('--columns')?.variants.map((variant) => variant.paths)).toEqual([
      ['', 'exchanges', 'compare', 'diff', 'filters', 'sql', 'auth list'], ['fees'], ['rules'], ['order-types'], ['historical'], ['results', 'results get', 'version'],
    ]);
  });
});
