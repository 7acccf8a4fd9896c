import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';

// Issue 39, point 6: one message per mistake, in mkt's own words.

describe('a value outside a fixed list', () => {
  it.each([
    [['results', '-f', 'jsn'], 'mkt: --format: unknown value "jsn"; did you mean json?\nAllowed values: table, json, ndjson, csv, parquet.\n'],
    [['--format', 'yaml', 'filters'], 'mkt: --format: unknown value "yaml"\nAllowed values: table, json, ndjson, csv, parquet.\n'],
    [['completion', 'tcsh'], 'mkt: shell: unknown value "tcsh"; did you mean bash?\nAllowed values: bash, zsh, fish.\n'],
    [['completion', 'fihs'], 'mkt: shell: unknown value "fihs"; did you mean fish?\nAllowed values: bash, zsh, fish.\n'],
    [['config', 'set', 'formt', 'json'], 'mkt: unknown setting "formt"; did you mean format?\nSettings are: base_url, format, timeout, retries.\n'],
    [['config', 'set', 'format', 'jsn'], 'mkt: format must be one of table, json, ndjson, csv, parquet, not "jsn"; did you mean json?\n'],
  ])('mkt %j gets a did-you-mean and the allowed values, exit 2, nothing sent', async (args, stderr) => {
    expect(await runInProcess(args)).toMatchObject({ code: 2, stdout: '', stderr });
  });

  it('takes a format in any case, as the filters take their values', async () => {
    const run = await runInProcess(['filters', '-f', 'JSON']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toBeInstanceOf(Array);
  });
});
