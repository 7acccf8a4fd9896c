import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/core/errors.js';
import { commandsReading } from '../../src/generators/model.js';
import { programSpec } from './generators/program.js';

// Issue 39, point 11: the README and docs/commands.md say what the program does.
const text = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The codes of the table under `## Exit codes`, in its order. */
function exitCodesOf(markdown: string): number[] {
  const section = markdown.split('\n## Exit codes\n')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `?(\d+)`? \|/gm)].map((match) => Number(match[1]));
}

describe('README.md and docs/commands.md', () => {
  it.each(['README.md', 'docs/commands.md'])('%s lists every exit code mkt has, and no other', (path) => {
    expect(exitCodesOf(text(path))).toEqual(Object.values(EXIT_CODES));
  });

  it('docs/commands.md says 10 comes from both sync --exit-code and diff --exit-code', () => {
    expect(text('docs/commands.md')).toMatch(/^\| `10` \| .*sync --exit-code and diff --exit-code/m);
  });

  it('the README names exactly the commands that take --sandbox', () => {
    const listed = /<!-- sandbox-commands -->([\s\S]*?)<!-- \/sandbox-commands -->/.exec(text('README.md'))?.[1] ?? '';
    expect([...listed.matchAll(/`([^`]+)`/g)].map((match) => match[1])).toEqual(commandsReading(programSpec(), '--sandbox'));
  });
});
