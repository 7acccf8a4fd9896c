import type { Command } from 'commander';
import { INCLUDE_PARAMETERS, type Includes } from '../api/results-query.js';

/** The citation flags, as commander parses them. */
export interface IncludeFlags {
  includeSource?: boolean;
  includeFootnotes?: boolean;
  includeDefinitions?: boolean;
}

const FLAG_OF: Readonly<Record<(typeof INCLUDE_PARAMETERS)[number], keyof IncludeFlags>> = {
  include_source: 'includeSource',
  include_footnotes: 'includeFootnotes',
  include_definitions: 'includeDefinitions',
};

/** `--include-source`, `--include-footnotes` and `--include-definitions`, under their own heading. */
export function addIncludeOptions(command: Command): void {
  command
    .optionsGroup('Citations (the 2026 edition; an older service ignores them):')
    .option('--include-source', 'each record with its source document, link and page')
    .option('--include-footnotes', 'each record with its footnotes (relationships.footnotes)')
    .option('--include-definitions', 'each record with the definitions of its terms (relationships.definitions)');
}

/** The citations the flags ask for, as the service's parameters: only those given. */
export function includesOf(flags: IncludeFlags): Includes {
  const includes: Includes = {};
  for (const parameter of INCLUDE_PARAMETERS) if (flags[FLAG_OF[parameter]] === true) includes[parameter] = true;
  return includes;
}
