import type { Command } from 'commander';
import type { ContextFor } from '../commands/context.js';
import { addExamples } from '../commands/examples.js';

/** `mkt mcp`: the SDK, zod and the server load here, so that no other command pays for them. */
export function registerMcpCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('mcp')
    .summary('The data commands as MCP tools, for assistants')
    .description(
      "Serve the data commands as eight read-only Model Context Protocol tools on stdin and stdout, for an assistant's MCP "
        + 'client (docs/mcp.md). The key comes from the profile or MKT_API_KEY; logs go to stderr.',
    )
    .action(async (_flags: unknown, self: Command) => {
      const { serveMcp } = await import('./server.js');
      await serveMcp(contextFor(self));
    });
  addExamples(command, [
    { comment: 'What an MCP client starts; the key from the profile or MKT_API_KEY', command: 'mkt mcp' },
    { comment: 'A demo for an assistant, no key needed: the built-in sandbox', command: 'mkt --sandbox mcp' },
  ]);
}
