import { type Command, Option } from 'commander';
import type { ServiceShape } from '../api/record-id.js';
import type { Context, ContextFor } from './context.js';
import type { SandboxOptions } from '../sandbox/server.js';
import { MktError, UsageError } from '../core/errors.js';
import { addExamples } from './examples.js';
import { DEFAULT_RECORDS, DEFAULT_SEED, MAX_LATENCY_MS, MAX_PORT, MAX_RATE_WINDOW_SECONDS, MAX_RECORDS, SANDBOX_SHAPES } from '../sandbox/limits.js';

/** The flags as commander hands them over, each checked by its parser. */
interface SandboxFlags {
  port: number;
  records: number;
  seed: number;
  rate?: { requests: number; seconds: number };
  faults?: boolean;
  latency?: number;
  json?: boolean;
  shape: ServiceShape;
}

/** Commander parser for a whole-number flag. */
function wholeNumber(flag: string, min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`, {
        hint: 'Run `mkt sandbox --help` for the flags.',
      });
    }
    return Number(value);
  };
}

function rate(value: string): { requests: number; seconds: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1 || Number(match[2]) > MAX_RATE_WINDOW_SECONDS) {
    throw new UsageError(`--rate must be REQUESTS/SECONDS, e.g. 100/60, not ${JSON.stringify(value)}`, {
      hint: `Both are whole numbers of at least 1; the window is at most ${MAX_RATE_WINDOW_SECONDS} seconds.`,
    });
  }
  return { requests: Number(match[1]), seconds: Number(match[2]) };
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Serves until the invocation is aborted (SIGINT/SIGTERM), then closes and returns: exit 0. */
async function runSandbox(flags: SandboxFlags, context: Context, shapeGiven: boolean): Promise<void> {
  const { startSandbox } = await import('../sandbox/server.js');
  const options: SandboxOptions = {
    port: flags.port,
    records: flags.records,
    seed: flags.seed,
    rate: flags.rate,
    faults: flags.faults === true,
    latencyMs: flags.latency,
    shape: flags.shape,
  };
  const sandbox = await startSandbox(options).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
    throw new MktError(`cannot listen on 127.0.0.1:${flags.port} (${code}).`, {
      hint: 'Pick another port, or --port 0 for a free one.',
      cause: error,
    });
  });
  try {
    const { url, keys, scopedExchanges } = sandbox;
    const out = context.deps.stdout;
    // The ready line names the shape when --shape asked for one, and is as before when not.
    if (flags.json) {
      const shape = shapeGiven ? { shape: flags.shape } : {};
      out.write(`${JSON.stringify({ url, api_key: keys.api_key, scoped_api_key: keys.scoped_api_key, ...shape })}\n`);
    } else {
      out.write(
        `Sandbox listening on ${url}${shapeGiven ? ` (the ${flags.shape} shape)` : ''}\n` +
          `  api_key         ${keys.api_key}   (every exchange)\n` +
          `  scoped_api_key  ${keys.scoped_api_key}   (${scopedExchanges.join(', ')})\n`,
      );
      context.log.info('Press Ctrl-C to stop.');
    }
    await waitForAbort(context.signal);
  } finally {
    await sandbox.close();
  }
}

export function registerSandboxCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('sandbox')
    .summary('A local emulator of the service, for testing')
    .description(
      'Serve the whole service interface locally with generated data (127.0.0.1 only), until Ctrl-C. '
        + 'The same seed gives the same data every run. For one command, mkt --sandbox <command> is simpler.',
    )
    .option('--port <n>', 'port to listen on; 0 picks a free one', wholeNumber('--port', 0, MAX_PORT), 0)
    .option('--records <n>', `number of fee schedule results, at most ${MAX_RECORDS}`, wholeNumber('--records', 0, MAX_RECORDS), DEFAULT_RECORDS)
    .option('--seed <n>', 'seed of the generated data; the same seed gives the same data', wholeNumber('--seed', 0, Number.MAX_SAFE_INTEGER), DEFAULT_SEED)
    .option('--rate <n/seconds>', 'allow n requests per window of so many seconds, per key; then 429', rate)
    .option('--faults', 'make the first try of about a quarter of requests fail')
    .option('--latency <ms>', 'delay every response by so many milliseconds', wholeNumber('--latency', 0, MAX_LATENCY_MS))
    .addOption(
      new Option('--shape <shape>', 'the edition of the service to speak: its interface document, or the 2026 edition')
        .choices(SANDBOX_SHAPES)
        .default(SANDBOX_SHAPES[0]),
    )
    .option('--json', 'print {"url","api_key","scoped_api_key"} as one JSON line when ready, and "shape" with --shape')
    .action(async (flags: SandboxFlags, command: Command) =>
      runSandbox(flags, contextFor(command), command.getOptionValueSource('shape') === 'cli'));
  addExamples(command, [
    { comment: 'For your own tests: a fixed port, and the demo keys printed', command: 'mkt sandbox --port 8080' },
    { comment: 'In CI: a free port, and the URL and keys as one JSON line (docs/recipes.md)', command: 'mkt sandbox --port 0 --json > sandbox.json &' },
    { comment: 'Rehearse the bad days: a rate limit, first tries failing, slow answers', command: 'mkt sandbox --rate 100/60 --faults --latency 200' },
  ]);
}
