import { createRequire } from 'node:module';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { type CommandHelp, helpModel } from '../../../src/help/model.js';
import { realProgram } from '../completion/program.js';

const { formatHelp } = createRequire(import.meta.url)('../../../bin/help.js') as { formatHelp: (help: CommandHelp, width: number) => string };

const WIDTHS = [20, 40, 60, 80, 100, 132, 200];
const PATHS = Object.keys(helpModel(realProgram()));

function findCommand(program: Command, path: string): Command {
  let command = program;
  for (const name of path.split(' ').filter(Boolean)) {
    const sub = command.commands.find((candidate) => candidate.name() === name);
    if (!sub) throw new Error(`no command ${path}`);
    command = sub;
  }
  return command;
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

/** What commander itself prints for `mkt <path> --help` on a terminal `width` columns wide. */
function commanderHelp(path: string, width: number): string {
  const program = realProgram();
  let output = '';
  for (const command of allCommands(program)) command.configureOutput({ writeOut: (text) => (output += text), getOutHelpWidth: () => width });
  findCommand(program, path).outputHelp();
  return output;
}

describe('bin/help.js lays out the help model as commander does', () => {
  it('covers the program and every command', () => {
    expect(PATHS).toContain('');
    expect(PATHS).toContain('results');
    expect(PATHS).toContain('auth login');
    expect(PATHS).not.toContain('__generate');
  });

  describe.each(WIDTHS)('%i columns', (width) => {
    const model = helpModel(realProgram());
    it.each(PATHS.map((path) => [path || '(the program)', path]))('mkt %s --help', (_label, path) => {
      expect(formatHelp(model[path] as CommandHelp, width)).toBe(commanderHelp(path, width));
    });
  });
});
