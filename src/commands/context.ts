import type { Command } from 'commander';
import type { Deps } from '../core/deps.js';
import type { Format } from '../output/formats.js';
import type { ResolvedSettings } from '../config/resolve.js';
import type { ServiceClient } from '../api/client.js';
import type { ServiceShape } from '../api/record-id.js';
import { colorEnabled } from '../io/color.js';
import { Logger, MIN_CONCEALED_KEY } from '../io/log.js';
import type { Progress } from '../io/progress.js';
import { SHOWN_WAIT_MS, type WaitObserver } from '../core/waits.js';
import { AuthError, type ExitCode, MktError, UsageError } from '../core/errors.js';
import type { ErrorFormat } from '../core/error-codes.js';

/** The options every data command takes (shared/cli-contract.md), as parsed by commander. */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  format?: Format;
  output?: string;
  columns?: string[];
  /** CSV only: a `'` before each cell a spreadsheet would take for a formula. */
  csvSafe?: boolean;
  sandbox?: boolean;
  /** The edition of the service the in-process sandbox speaks (with --sandbox only). */
  sandboxShape?: ServiceShape;
  /** Allow sending the key over plain http to a host that is not loopback. */
  insecure?: boolean;
  /** Cap on requests per second, for users who share a key. */
  maxRps?: number;
  /** Seconds per request. */
  timeout?: number;
  retries?: number;
  quiet?: boolean;
  verbose?: boolean;
  /** False with --no-color. */
  color: boolean;
  /** How a failure is written on stderr (--error-format, else MKT_ERROR_FORMAT). */
  errorFormat?: ErrorFormat;
  /** Print the requests as `curl` lines instead of sending them (src/http/dry-run.ts). */
  dryRun?: boolean;
}

/** Where --dry-run's lines send a --sandbox request: the sandbox `mkt sandbox --port 8080` serves, as none is started. */
const DRY_RUN_SANDBOX_URL = 'http://127.0.0.1:8080';

/** Hands an action the invocation's Context, built once from the global options. */
export type ContextFor = (command: Command) => Context;

type Disposer = () => unknown;

/**
 * One invocation's factory: hands a command what it needs, built on first use, so that a
 * command that never talks to the service never loads the HTTP client, the config writer or
 * the sandbox.
 */
export class Context {
  readonly log: Logger;
  readonly stderrColor: boolean;
  readonly stdoutColor: boolean;
  /** What a command that succeeded exits with, when not 0: `sync --exit-code` sets 10 for changes. */
  exitCode: ExitCode | undefined;
  private readonly abortController = new AbortController();
  private readonly disposers: Disposer[] = [];
  private settingsPromise: Promise<ResolvedSettings> | undefined;
  private clientPromise: Promise<ServiceClient> | undefined;
  private progressPromise: Promise<Progress> | undefined;

  constructor(
    readonly deps: Deps,
    readonly globals: GlobalOptions,
  ) {
    this.stderrColor = colorEnabled(deps.stderr, deps.env, globals.color);
    this.stdoutColor = colorEnabled(deps.stdout, deps.env, globals.color);
    this.log = new Logger(deps.stderr, {
      quiet: globals.quiet === true,
      verbose: globals.verbose === true,
      color: this.stderrColor,
      hold: globals.errorFormat === 'json',
    });
  }

  /** Aborted on SIGINT/SIGTERM. */
  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  abort(reason: unknown): void {
    this.abortController.abort(reason);
  }

  /**
   * Whether stderr shows a progress line and notes for a person: a terminal, and --quiet is off
   * (shared/cli-contract.md). Under --error-format json, stderr is for a program.
   */
  get showsProgress(): boolean {
    return this.deps.stderr.isTTY === true && this.globals.quiet !== true && this.globals.errorFormat !== 'json';
  }

  /**
   * The invocation's one progress line on stderr, which also shows the HTTP client's waits;
   * silent when `showsProgress` is false. ora loads with it, on first use.
   */
  progress(): Promise<Progress> {
    if (this.progressPromise) return this.progressPromise;
    const created = import('../io/progress.js').then(({ createProgress }) =>
      createProgress({ stream: this.deps.stderr, enabled: this.showsProgress, color: this.stderrColor, now: this.deps.now }));
    // Cleared at the end even if the command ends before ora has loaded.
    this.defer(async () => (await created).clear());
    this.progressPromise = created;
    return created;
  }

  /** Hands the HTTP client's waits to the progress line, loading it only for a wait long enough to show. */
  private waitObserver(): WaitObserver | undefined {
    if (!this.showsProgress) return undefined;
    return {
      began: (wait) => {
        if (wait.ms > SHOWN_WAIT_MS) void this.progress().then((progress) => progress.began(wait));
      },
      ended: (wait) => void this.progressPromise?.then((progress) => progress.ended(wait)),
    };
  }

  /** Profile, base URL, key and defaults, by flag, then variable, then stored profile. */
  settings(): Promise<ResolvedSettings> {
    this.settingsPromise ??= this.resolveSettings().then((settings) => {
      if (settings.apiKey) this.log.conceal(settings.apiKey);
      return settings;
    });
    return this.settingsPromise;
  }

  /** The service's client for the resolved base URL and key. */
  client(): Promise<ServiceClient> {
    this.clientPromise ??= this.settings().then((settings) => this.createClient(settings));
    return this.clientPromise;
  }

  /** A client for these settings (auth login checks a key not stored yet); its connections close at the end. */
  async createClient(settings: ResolvedSettings): Promise<ServiceClient> {
    const [{ checkBaseUrl }, { checkProfileExists }] = await Promise.all([import('../http/base-url.js'), import('../config/resolve.js')]);
    checkProfileExists(settings);
    // The in-process sandbox is on this machine: never through a proxy.
    const proxyEnv = settings.baseUrlSource === 'sandbox' ? undefined : this.deps.env;
    const baseUrl = checkBaseUrl(settings.baseUrl, settings.profile, { insecure: this.globals.insecure, proxyEnv });
    if (this.globals.dryRun) return this.createDryRunClient(settings, baseUrl);
    const { apiKey } = settings;
    if (!apiKey) {
      throw new AuthError(`no API key for profile "${settings.profile}"`, {
        hint: 'Run `mkt auth login`, or set MKT_API_KEY. To try mkt without a key, add --sandbox.',
      });
    }
    // auth login checks a key that settings() has not seen.
    this.log.conceal(apiKey);
    const [{ createTransport }, { DEFAULT_RETRY_POLICY }, { createServiceClient }, { VERSION }] = await Promise.all([
      import('../http/transport.js'),
      import('../http/retry.js'),
      import('../api/client.js'),
      import('../core/version.js'),
    ]);
    const transport = await createTransport({
      baseUrl,
      userAgent: `mkt/${VERSION}`,
      timeoutMs: settings.timeoutSeconds * 1000,
      retry: { ...DEFAULT_RETRY_POLICY, retries: settings.retries, maxDelayMs: this.deps.maxRetryDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs },
      maxRequestsPerSecond: this.globals.maxRps,
      signal: this.signal,
      now: this.deps.now,
      sleep: this.deps.sleep,
      waits: this.waitObserver(),
      log: this.log,
      proxyEnv,
    });
    this.defer(() => transport.close());
    return createServiceClient(transport, {
      apiKey,
      keySource: settings.keySource,
      placements: settings.keyPlacements,
    });
  }

  /** The client of --dry-run: its requests are printed on stdout, after a comment on whose key and server they need. */
  private async createDryRunClient(settings: ResolvedSettings, baseUrl: URL): Promise<ServiceClient> {
    const [{ createDryRunTransport, KEY_STAND_IN }, { createServiceClient }, { VERSION }] = await Promise.all([
      import('../http/dry-run.js'),
      import('../api/client.js'),
      import('../core/version.js'),
    ]);
    const write = (line: string) => this.deps.stdout.write(line);
    if (settings.baseUrlSource === 'sandbox') {
      write(`# --sandbox: the in-process sandbox would answer these; to send them, serve one with \`mkt sandbox --port 8080${this.globals.sandboxShape === '2026' ? ' --shape 2026' : ''}\` and set MKT_API_KEY to the demo key it prints\n`);
    } else if (!settings.apiKey) {
      write(`# no API key for profile "${settings.profile}": set MKT_API_KEY before running these\n`);
    }
    const transport = createDryRunTransport({
      baseUrl,
      userAgent: `mkt/${VERSION}`,
      // As the logger conceals it: a shorter key cannot be told from mkt's own words.
      ...(settings.apiKey !== undefined && settings.apiKey.length >= MIN_CONCEALED_KEY ? { apiKey: settings.apiKey } : {}),
      write,
    });
    return createServiceClient(transport, { apiKey: KEY_STAND_IN, keySource: settings.keySource, placements: settings.keyPlacements });
  }

  /** Runs fn when the invocation ends, last registered first. */
  defer(fn: Disposer): void {
    this.disposers.push(fn);
  }

  /** Stops what is still running (pages fetched ahead of a `| head` or a --limit), then cleans up. */
  async dispose(): Promise<void> {
    if (!this.signal.aborted) this.abortController.abort(new MktError('the command has finished'));
    for (const dispose of this.disposers.splice(0).reverse()) {
      await dispose();
    }
  }

  private async resolveSettings(): Promise<ResolvedSettings> {
    // The sandbox runs on a port of its own: a --base-url beside it would be silently dropped.
    if (this.globals.sandbox && this.globals.baseUrl !== undefined) {
      throw new UsageError('give either --sandbox or --base-url, not both', {
        hint: '--sandbox starts its own server with a demo key; --base-url names the service to use instead.',
      });
    }
    const { resolveSettings } = await import('../config/resolve.js');
    if (!this.globals.sandbox) return resolveSettings({ flags: this.globals, env: this.deps.env });
    // The sandbox brings its own URL and key: a broken config file is a warning, not a stop.
    const settings = resolveSettings({
      flags: this.globals,
      env: this.deps.env,
      readStoredKey: false,
      onUnreadableSettings: (error) => this.log.warn(`${error.message}; --sandbox goes on without it`),
    });
    const { DEFAULT_KEY_PLACEMENTS, RESULTS_KEY_HEADER } = await import('../api/key-placement.js');
    // The sandbox takes the key as its shape's document does, whatever the profile's service wants:
    // the 2026 edition's one header everywhere.
    const keyPlacements = this.globals.sandboxShape === '2026' ? { exchanges: `header:${RESULTS_KEY_HEADER}` as const, results: `header:${RESULTS_KEY_HEADER}` as const } : DEFAULT_KEY_PLACEMENTS;
    const sandboxSettings = { ...settings, baseUrlSource: 'sandbox', keySource: 'sandbox', keyPlacements } as const;
    // A dry run sends nothing: no sandbox to start.
    if (this.globals.dryRun) return { ...sandboxSettings, baseUrl: DRY_RUN_SANDBOX_URL, apiKey: undefined };
    const { startSandbox } = await import('../sandbox/server.js');
    const sandbox = await startSandbox({ port: 0, shape: this.globals.sandboxShape });
    this.defer(() => sandbox.close());
    return { ...sandboxSettings, baseUrl: sandbox.url, apiKey: sandbox.keys.api_key };
  }
}
