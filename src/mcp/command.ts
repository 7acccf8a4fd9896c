import type { Command } from 'commander';
import type { ContextFor } from '../commands/context.js';
import { addExamples } from '../commands/examples.js';

/** `mkt mcp`: the SDK, zod and the server load here, so that no other command pays for them. */
export function registerMcpCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('mcp')
    .summary('A read-only MCP server on stdio, for assistants and agents')
    .description(
      'Serve the Model Context Protocol on standard input and output: eight read-only tools (exchanges, filter values, results '
        + 'search, fee schedules, rules and order types, compare, diff, SQL over the mirror) for an MCP client to start (docs/mcp.md). '
        + 'The key comes from the profile or MKT_API_KEY, as for every command; logs go to stderr.',
    )
    .action(async (_flags: unknown, self: Command) => {
      const { serveMcp } = await import('./server.js');
      await serveMcp(contextFor(self));
    });
  addExamples(command, [
    { comment: 'An MCP client\'s configuration starts it as: {"mcpServers": {"mkt": {"command": "mkt", "args": ["mcp"]}}}', command: 'mkt mcp' },
    { comment: 'A demo for an assistant, no key needed: the built-in sandbox', command: 'mkt --sandbox mcp' },
  ]);
}
