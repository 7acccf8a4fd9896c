import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderShippedFiles, SHIPPED_FILES } from '../../../src/generators/shipped-files.js';
import { realProgram } from './program.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('the shipped files are what the program generates', () => {
  it('ships the three completion scripts, the man page and the command reference', () => {
    expect(SHIPPED_FILES.map((file) => file.path)).toEqual([
      'completions/mkt.bash',
      'completions/_mkt',
      'completions/mkt.fish',
      'docs/mkt.1',
      'docs/commands.md',
    ]);
  });

  it.each(renderShippedFiles(realProgram()).map((file) => [file.path, file.text]))('%s is up to date', (path, text) => {
    const shipped = readFileSync(`${ROOT}${path}`, 'utf8');
    expect(shipped, `${path} differs from what the program generates: run \`npm run generate\``).toBe(text);
  });
});
