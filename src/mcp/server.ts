import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Context } from '../commands/context.js';
import { abortReason } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { answer, failure, inArgumentNames } from './tool-call.js';
import { TOOLS } from './tools.js';

const INSTRUCTIONS =
  'Read-only access to exchange fee schedules, rules, order types and fee schedule results for 40+ trading venues. '
  + 'Start with list_exchanges for the identifiers, get_filter_values for the filter values; search_fee_results pages with next_cursor.';

/**
 * `mkt mcp`: a Model Context Protocol server on standard input and output, until the client
 * closes standard input or a signal ends it. Standard output carries protocol messages alone;
 * a tool's failure is its answer (`isError`), and the server goes on serving.
 */
export async function serveMcp(context: Context): Promise<void> {
  const server = new McpServer({ name: 'mkt', title: 'mkt: exchange fee data', version: VERSION }, { instructions: INSTRUCTIONS });
  // Calls still running when the input ends, which answer before the server closes: `… | mkt mcp` gets every answer.
  const running = new Set<Promise<unknown>>();
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: { readOnlyHint: true, openWorldHint: true } },
      (args: Record<string, unknown>, extra) => {
        const call = tool.run(context, args, extra.signal).then(
          (data) => answer(context, data),
          (error: unknown) => {
            context.log.debug(`${tool.name}: ${error instanceof Error ? error.message : String(error)}`);
            return failure(context, inArgumentNames(error, Object.keys(tool.input)));
          },
        );
        running.add(call);
        void call.finally(() => running.delete(call));
        return call;
      },
    );
  }
  const { stdin, stdout } = context.deps;
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    context.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  // A person who typed `mkt mcp` at a terminal is told what it waits for; a client reads nothing of it.
  if (stdin.isTTY === true && context.showsProgress) context.log.info('mkt mcp serves an MCP client on stdin and stdout (docs/mcp.md); Ctrl-C ends it.');
  context.log.debug(`mcp: serving ${TOOLS.length} tools on stdio`);
  await closed;
  // The last message read has begun its call by now: its handler starts as the message is read.
  await new Promise((resolve) => setImmediate(resolve));
  // A call's answer is sent a few steps after its work settles (its output checked), and closing drops what is not sent.
  while (running.size > 0 && !context.signal.aborted) {
    await Promise.allSettled(running);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await server.close();
  if (context.signal.aborted) throw abortReason(context.signal);
}
