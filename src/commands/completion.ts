import { Argument, type Command } from 'commander';
import type { OutputStream } from '../core/deps.js';
import type { ContextFor } from './context.js';
import { addExamples } from './examples.js';
import { matchAllowed } from './flag-values.js';
import { SCRIPT_FILES, type Shell, SHELLS } from './shells.js';
import { ENUM_FILTER_NAMES } from '../api/filters.js';


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
    .summary('Print the shell completion script')
    .description('Print the shell completion script for bash, zsh or fish (see the README to install it).')
    // In mkt's words: a did-you-mean and the allowed values (`.choices` keeps them for help and completion).
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS).argParser((value) => matchAllowed('<shell>', value, SHELLS)))
    .action(async (shell: Shell, _flags: unknown, self: Command) => {
      // The shipped script, which tests keep equal to what the program generates: a shell that
      // sources `mkt completion bash` at every start need not build the completion model.
      const { readFile } = await import('node:fs/promises');
      const script = await readFile(new URL(`../../${SCRIPT_FILES[shell]}`, import.meta.url), 'utf8');
      await writeOut(contextFor(self).deps.stdout, script);
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
      const { storedProfileNames } = await import('../config/store.js');
      const names = storedProfileNames(configFiles(configDirectory(context.deps.env)));
      await writeOut(context.deps.stdout, names.map((name) => `${name}\n`).join(''));
    });

  // For the completion scripts: the cached exchange identifiers of the profile (--profile, then
  // MKT_PROFILE), one per line. No request: without a cache, or with a bad profile name, nothing.
  program
    .command('__exchanges', { hidden: true })
    .action(async (_flags: unknown, self: Command) => {
      const context = contextFor(self);
      const { cacheDirectory } = await import('../config/paths.js');
      const { readExchangeList } = await import('../config/exchange-cache.js');
      const { resolveProfile } = await import('../config/resolve.js');
      let ids: string[] = [];
      try {
        const { profile } = resolveProfile(context.globals.profile, context.deps.env);
        ids = readExchangeList(cacheDirectory(context.deps.env), profile)?.exchanges.map((exchange) => exchange.id) ?? [];
      } catch {
        // A profile name mkt refuses: there is nothing to complete, and no place to say so.
      }
      await writeOut(context.deps.stdout, ids.map((id) => `${id}\n`).join(''));
    });

  // For the completion scripts: each enumerated filter's values, in the spelling the profile's
  // service uses where it has been kept, with the interface document's table. No request.
  for (const name of ENUM_FILTER_NAMES) {
    program
      .command(`__${name}`, { hidden: true })
      .action(async (_flags: unknown, self: Command) => {
        const context = contextFor(self);
        const { cacheDirectory } = await import('../config/paths.js');
        const { readFilterValues } = await import('../config/exchange-cache.js');
        const { allowedFilterValues } = await import('../api/available-filters.js');
        const { resolveProfile } = await import('../config/resolve.js');
        let kept;
        try {
          kept = readFilterValues(cacheDirectory(context.deps.env), resolveProfile(context.globals.profile, context.deps.env).profile)?.values;
        } catch {
          // A profile name mkt refuses: the table's values alone.
        }
        await writeOut(context.deps.stdout, allowedFilterValues(kept)[name].map((value) => `${value}\n`).join(''));
      });
  }
}
