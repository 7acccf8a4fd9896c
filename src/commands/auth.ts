import type { Command } from 'commander';
import type { Context, ContextFor } from './context.js';
import type { ResolvedSettings, SettingSource } from '../config/resolve.js';
import type { ServiceClient } from '../api/client.js';
import { AuthError, UsageError } from '../core/errors.js';
import type { Column } from '../output/exporter.js';
import { addExamples } from './examples.js';
import { groupDigits } from '../core/digits.js';

/** `mkt auth login` options. */
interface LoginOptions {
  /** Check the key with one cheap call before storing it; false with --no-verify. */
  verify: boolean;
}

export function registerAuthCommand(program: Command, contextFor: ContextFor): void {
  const auth = program
    .command('auth')
    .summary("Store, show and remove a profile's API key")
    .description('Store, show and remove the API key of a profile. The key is never taken as an argument: it would show in ps and in shell history.');
  const loginCommand = auth
    .command('login')
    .description(
      'Store an API key, read from stdin or a hidden prompt (never from an argument), after checking it with one '
        + 'request. --base-url given here is stored with the key.',
    )
    .option('--no-verify', 'store the key without checking it against the service')
    .action(async (flags: { verify: boolean }, self: Command) => login(contextFor(self), { verify: flags.verify }));
  const statusCommand = auth
    .command('status')
    .description('Show the profile, the base URL and where the key comes from (its last 4 characters only); exit 3 without a key.')
    .option('--check', 'also check the key with one request: exit 3 when the service rejects it')
    .action(async (flags: { check?: boolean }, self: Command) => status(contextFor(self), flags.check === true));
  const listCommand = auth
    .command('list')
    .description('List the stored profiles: base URL and the last 4 characters of the key; `current` marks the one in use.')
    .action(async (_flags: unknown, self: Command) => list(contextFor(self)));
  const logoutCommand = auth
    .command('logout')
    .description("Remove the profile's stored key.")
    .action(async (_flags: unknown, self: Command) => logout(contextFor(self)));

  const loginExamples = [
    { comment: 'At a terminal: prompts for the key, hidden', command: 'mkt auth login --base-url https://data.example.com' },
    { comment: 'In a script: the key from a secret store, into the prod profile', command: 'printenv FEES_KEY | mkt auth login --profile prod --base-url https://data.example.com' },
  ];
  const statusExamples = [
    { comment: 'What applies now, and where it comes from', command: 'mkt auth status --profile prod' },
    { comment: 'In a script: log in only when there is no key yet (exit 3)', command: 'mkt auth status >/dev/null 2>&1 || mkt auth login < key.txt' },
    { comment: 'In a cron job: is the key still accepted? (one request; exit 3 when not)', command: 'mkt auth status --check --profile prod' },
  ];
  const listExamples = [
    { comment: 'Every profile, and which one is in use', command: 'mkt auth list' },
    { comment: 'In a script: the profile names', command: "mkt auth list -f json | jq -r '.[].profile'" },
  ];
  const logoutExamples = [
    { comment: "Forget the dev profile's key", command: 'mkt auth logout --profile dev' },
    { comment: 'Forget the default profile\'s key; MKT_API_KEY, if set, still applies', command: 'mkt auth logout' },
  ];
  addExamples(loginCommand, loginExamples);
  addExamples(statusCommand, statusExamples);
  addExamples(listCommand, listExamples);
  addExamples(logoutCommand, logoutExamples);
  addExamples(auth, [...loginExamples, ...statusExamples, ...listExamples, ...logoutExamples]);
}

async function login(context: Context, options: LoginOptions): Promise<void> {
  const { resolveSettings } = await import('../config/resolve.js');
  const settings = resolveSettings({ flags: context.globals, env: context.deps.env, readStoredKey: false });
  const { profile } = settings;
  if (options.verify && !settings.baseUrl) {
    throw new UsageError(`no base URL for profile "${profile}": the key cannot be checked`, {
      hint: 'Pass --base-url URL (it is stored with the key), set MKT_BASE_URL, or add --no-verify.',
    });
  }
  const { readApiKey } = await import('../config/key-input.js');
  const key = await readApiKey(context.deps, profile, context.signal);
  const reach = options.verify ? await checkNewKey(context, settings, key) : undefined;

  const { configFiles } = await import('../config/paths.js');
  const { setSetting, storeApiKey } = await import('../config/store.js');
  const files = configFiles(settings.configDir);
  if (settings.baseUrlSource === 'flag' && settings.baseUrl) await setSetting(files, profile, 'base_url', settings.baseUrl);
  await storeApiKey(files, profile, key);

  if (reach === undefined) {
    context.log.info(`Stored the key for profile "${profile}" without checking it.`);
  } else {
    context.log.info(`Logged in to ${reach.origin} as profile "${profile}": the key reaches ${resultsCount(reach.count)}.`);
  }
  if (!settings.baseUrl) {
    context.log.warn(`profile "${profile}" has no base URL; set one with \`mkt config set base_url URL --profile ${profile}\`.`);
  }
  if (settings.keySource === 'env') context.log.warn('MKT_API_KEY is set in this environment and outranks the stored key.');
}

/** One page of one result: the cheapest call that proves a key, and its total says what the key reaches. */
async function countReachableResults(client: ServiceClient): Promise<number> {
  return (await client.fetchResultsPage({ page_size: 1 })).total_records;
}

/** "3,000 fee schedule results" */
function resultsCount(count: number): string {
  return `${groupDigits(count)} fee schedule result${count === 1 ? '' : 's'}`;
}

/** The key read for `auth login`, proved before it is stored: the origin it went to, and what it reaches there. */
async function checkNewKey(context: Context, settings: ResolvedSettings, apiKey: string): Promise<{ origin: string; count: number }> {
  try {
    const client = await context.createClient({ ...settings, apiKey, keySource: 'stored' });
    return { origin: client.origin, count: await countReachableResults(client) };
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    throw new AuthError(error.message, { hint: 'Nothing was stored. Check the key and try again.', cause: error });
  }
}

async function status(context: Context, check: boolean): Promise<void> {
  const settings = await context.settings();
  const { configFiles } = await import('../config/paths.js');
  const { maskApiKey } = await import('../config/settings.js');
  const files = configFiles(settings.configDir);
  const from = (source: string) => (source ? ` (from ${source})` : '');
  const profileSources: Record<SettingSource, string> = { flag: '--profile', env: 'MKT_PROFILE', profile: '', default: '', sandbox: '' };
  const baseUrlSources: Record<SettingSource, string> = {
    flag: '--base-url', env: 'MKT_BASE_URL', profile: files.settings, default: '', sandbox: '--sandbox',
  };
  const keySources: Record<ResolvedSettings['keySource'], string> = {
    env: 'MKT_API_KEY', stored: files.credentials, sandbox: '--sandbox', none: '',
  };

  const baseUrl = settings.baseUrl ? `${settings.baseUrl}${from(baseUrlSources[settings.baseUrlSource ?? 'default'])}` : 'none';
  // Where requests go: every path is appended to the base URL's, never resolved against it (src/http/base-url.ts).
  const origin = settings.baseUrl ? `origin    ${new URL(settings.baseUrl).origin} (the only one the key is sent to)\n` : '';
  const key = settings.apiKey ? `${maskApiKey(settings.apiKey)}${from(keySources[settings.keySource])}` : 'none';
  context.deps.stdout.write(
    `profile   ${settings.profile}${from(profileSources[settings.profileSource])}\n`
    + `base URL  ${baseUrl}\n`
    + origin
    + `key       ${key}\n`,
  );
  if (!settings.apiKey) {
    const { checkProfileExists } = await import('../config/resolve.js');
    checkProfileExists(settings);
    throw new AuthError(`no API key for profile "${settings.profile}"`, {
      hint: `Run \`mkt auth login --profile ${settings.profile}\`, or set MKT_API_KEY.`,
    });
  }
  if (check) context.deps.stdout.write(`check     accepted: the key reaches ${resultsCount(await countReachableResults(await context.client()))}\n`);
}

/** What `auth list` shows of a profile, in every format; no profile is a valid empty CSV or Parquet file. */
const PROFILE_COLUMNS: readonly Column[] = [
  { name: 'profile', kind: 'string', nullable: false },
  { name: 'current', kind: 'boolean', nullable: false },
  { name: 'base_url', kind: 'string', nullable: true },
  { name: 'key', kind: 'string', nullable: true },
];

/** One row per stored profile; a key is shown by its last 4 characters only. */
async function list(context: Context): Promise<void> {
  const [{ resolveProfileFiles }, { readProfileSettings, readStoredApiKey, storedProfileNames }, { maskApiKey }] = await Promise.all([
    import('../config/resolve.js'),
    import('../config/store.js'),
    import('../config/settings.js'),
  ]);
  const { profile: current, files } = resolveProfileFiles(context.globals.profile, context.deps.env);
  const rows = storedProfileNames(files).map((name) => {
    const key = readStoredApiKey(files, name);
    return { profile: name, current: name === current, base_url: readProfileSettings(files, name).base_url ?? null, key: key ? maskApiKey(key) : null };
  });
  if (rows.length === 0) context.log.info('No profile is stored: `mkt auth login` stores one.');
  const [{ writeDataset }, { outputOptions }, { inOneBatch }] = await Promise.all([
    import('../output/write.js'),
    import('./output-options.js'),
    import('../output/exporter.js'),
  ]);
  await writeDataset(
    { shape: 'list', batches: inOneBatch(rows), columns: PROFILE_COLUMNS, select: context.globals.columns },
    outputOptions(context),
  );
}

async function logout(context: Context): Promise<void> {
  const { resolveProfileFiles } = await import('../config/resolve.js');
  const { removeApiKey } = await import('../config/store.js');
  const { env } = context.deps;
  const { profile, files } = resolveProfileFiles(context.globals.profile, env);
  context.log.info(
    (await removeApiKey(files, profile))
      ? `Removed the key of profile "${profile}" from ${files.credentials}.`
      : `Profile "${profile}" had no stored key.`,
  );
  if (env.MKT_API_KEY?.trim()) context.log.warn('MKT_API_KEY is still set in this environment; mkt will keep using it.');
}
