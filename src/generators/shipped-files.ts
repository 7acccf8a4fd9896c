import type { Command } from 'commander';
import { SCRIPT_FILES, type Shell } from '../commands/shells.js';
import { bashScript } from './bash.js';
import { zshScript } from './zsh.js';
import { fishScript } from './fish.js';
import { manPage } from './man-page.js';
import { commandReference } from './command-reference.js';
import { describeCommand, type CommandSpec } from './model.js';
import { withHelpCommands } from './shell-tables.js';

const SCRIPTS: Readonly<Record<Shell, (program: CommandSpec) => string>> = {
  bash: (program) => bashScript(withHelpCommands(program)),
  zsh: (program) => zshScript(withHelpCommands(program)),
  fish: (program) => fishScript(withHelpCommands(program)),
};

/** The files generated from the program and kept in the repository, by path from its root. */
export const SHIPPED_FILES: readonly { path: string; render: (program: CommandSpec) => string }[] = [
  { path: SCRIPT_FILES.bash, render: SCRIPTS.bash },
  { path: SCRIPT_FILES.zsh, render: SCRIPTS.zsh },
  { path: SCRIPT_FILES.fish, render: SCRIPTS.fish },
  { path: 'docs/mkt.1', render: manPage },
  { path: 'docs/commands.md', render: commandReference },
];

/** Each shipped file's path and the text the program generates for it now. */
export function renderShippedFiles(program: Command): { path: string; text: string }[] {
  const spec = describeCommand(program);
  return SHIPPED_FILES.map((file) => ({ path: file.path, text: file.render(spec) }));
}
