import { writeFileSync } from 'node:fs';
import { Argument, type Command } from 'commander';
import type { OutputStream } from '../deps.js';
import type { ContextFor } from '../program.js';
import { addExamples } from '../completion/command-examples.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Writes text to stdout; a reader that went away (`mkt completion zsh | true`) is no error. */
async function writeOut(stream: OutputStream, text: string): Promise<void> {
  const { ChunkSink, isBrokenPipe } = await import('../output/sink.js');
  const sink = new ChunkSink(stream);
  try {
    await sink.write(text);
    await sink.close();
  } catch (error) {
    if (!isBrokenPipe(error)) throw error;
  } finally {
    sink.detach();
  }
}

export function registerCompletionCommand(program: Command, contextFor: ContextFor): void {
  const completion = program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish (see the README to install it).')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .action(async (shell: Shell, _flags: unknown, self: Command) => {
      const { completionScript } = await import('../completion/shipped-files.js');
      await writeOut(contextFor(self).deps.stdout, completionScript(shell, program));
    });
  addExamples(completion, [
    { comment: 'Bash: load it in every new shell', command: "echo 'source <(mkt completion bash)' >> ~/.bashrc" },
    { comment: 'Zsh: load it in every new shell', command: "echo 'source <(mkt completion zsh)' >> ~/.zshrc" },
    { comment: 'Fish: install it for your user', command: 'mkt completion fish > ~/.config/fish/completions/mkt.fish' },
  ]);

  // For the completion scripts: the stored profiles, one per line; quick, and silent on errors.
  program
    .command('__profiles', { hidden: true })
    .action(async (_flags: unknown, self: Command) => {
      const context = contextFor(self);
      const { configDirectory, configFiles } = await import('../config/paths.js');
      const { storedProfileNames } = await import('../completion/profile-names.js');
      const names = storedProfileNames(configFiles(configDirectory(context.deps.env)));
      await writeOut(context.deps.stdout, names.map((name) => `${name}\n`).join(''));
    });

  // For `npm run generate`: writes the completion scripts, the man page and the command reference.
  program
    .command('__generate', { hidden: true })
    .argument('<dir>', 'the root of the checkout')
    .action(async (dir: string, _flags: unknown, self: Command) => {
      const { writeShippedFiles } = await import('../completion/shipped-files.js');
      const written = await writeShippedFiles(program, dir);
      contextFor(self).log.info(`Wrote ${written.join(', ')}.`);
    });

  // For `npm run build`: writes the help that bin/mkt.js answers `mkt --help` from (src/help/model.ts).
  program
    .command('__help-model', { hidden: true })
    .argument('<file>', 'the file to write, dist/help.json')
    .action(async (file: string) => {
      const { helpModel } = await import('../help/model.js');
      writeFileSync(file, JSON.stringify(helpModel(program)));
    });
}
