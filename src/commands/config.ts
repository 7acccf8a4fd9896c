import type { Command } from 'commander';
import type { Context, ContextFor } from './context.js';
import type { ConfigFiles } from '../config/paths.js';
import type { ProfileSettings } from '../config/settings.js';
import { MktError } from '../core/errors.js';
import { addExamples } from './examples.js';

/** The profile a config command acts on, and the files that hold it. */
interface ConfigTarget {
  profile: string;
  files: ConfigFiles;
}

export function registerConfigCommand(program: Command, contextFor: ContextFor): void {
  const config = program
    .command('config')
    .summary("Manage a profile's settings")
    .description(
      'Manage the settings of a profile: base_url, format, timeout, retries, and where the key goes '
        + '(exchanges_auth, results_auth: bearer or header:<name>). Flags and variables outrank them.',
    );
  const getCommand = config
    .command('get')
    .description("Print a setting's stored value; exit 1 if it is not set.")
    .argument('<name>', 'base_url, format, timeout, retries, exchanges_auth or results_auth')
    .action(async (name: string, _flags: unknown, self: Command) => get(contextFor(self), name));
  const setCommand = config
    .command('set')
    .description('Store a setting in the profile.')
    .argument('<name>', 'base_url, format, timeout, retries, exchanges_auth or results_auth')
    .argument('<value>', 'an http(s) URL, a format, seconds, a number of retries, or bearer or header:<name>')
    .action(async (name: string, value: string, _flags: unknown, self: Command) => set(contextFor(self), name, value));
  const unsetCommand = config
    .command('unset')
    .description('Remove a setting from the profile (nothing to remove is not an error).')
    .argument('<name>', 'base_url, format, timeout, retries, exchanges_auth or results_auth')
    .action(async (name: string, _flags: unknown, self: Command) => unset(contextFor(self), name));
  const listCommand = config
    .command('list')
    .description("Print the profile's stored settings as name=value lines.")
    .action(async (_flags: unknown, self: Command) => list(contextFor(self)));
  const pathCommand = config
    .command('path')
    .description('Print the directory that holds config.json and credentials.json.')
    .action(async (_flags: unknown, self: Command) => printPath(contextFor(self)));

  const examples = {
    set: [
      { comment: "Point the prod profile at the service", command: 'mkt config set base_url https://data.example.com --profile prod' },
      { comment: 'CSV unless a command says otherwise', command: 'mkt config set format csv' },
      { comment: 'A 2026 service: its one key header on the exchange endpoints too', command: 'mkt config set exchanges_auth header:x-service-api-access-key' },
    ],
    get: [
      { comment: "The prod profile's base URL", command: 'mkt config get base_url --profile prod' },
      { comment: 'In a script: empty and exit 1 when not set', command: 'timeout=$(mkt config get timeout 2>/dev/null) || timeout=30' },
    ],
    unset: [
      { comment: 'Back to the default of 4 retries', command: 'mkt config unset retries' },
      { comment: 'Back to table at a terminal and JSON elsewhere, for the dev profile', command: 'mkt config unset format --profile dev' },
    ],
    list: [
      { comment: "The default profile's settings, name=value", command: 'mkt config list' },
      { comment: 'In a script: the base URL of prod', command: "mkt config list --profile prod | sed -n 's/^base_url=//p'" },
    ],
    path: [
      { comment: 'Where the files are', command: 'ls -l "$(mkt config path)"' },
      { comment: 'Back up the settings and keys, keeping their modes', command: 'cp -p "$(mkt config path)"/*.json ~/backup/' },
    ],
  };
  addExamples(setCommand, examples.set);
  addExamples(getCommand, examples.get);
  addExamples(unsetCommand, examples.unset);
  addExamples(listCommand, examples.list);
  addExamples(pathCommand, examples.path);
  addExamples(config, [...examples.set, ...examples.list, ...examples.path]);
}

/** Only the profile and the directory: a bad MKT_BASE_URL must not stop `mkt config` from fixing things. */
async function target(context: Context): Promise<ConfigTarget> {
  const { resolveProfileFiles } = await import('../config/resolve.js');
  return resolveProfileFiles(context.globals.profile, context.deps.env);
}

async function get(context: Context, text: string): Promise<void> {
  const { parseSettingName, SETTING_DEFAULTS } = await import('../config/settings.js');
  const { readProfileSettings } = await import('../config/store.js');
  const name = parseSettingName(text);
  const { profile, files } = await target(context);
  const value = readProfileSettings(files, profile)[name];
  if (value === undefined) {
    const defaults: ProfileSettings = SETTING_DEFAULTS;
    const fallback = defaults[name];
    // Like `git config`: stdout stays empty and the exit code says "not set".
    throw new MktError(`${name} is not set in profile "${profile}"${fallback === undefined ? '' : ` (the default is ${fallback})`}`);
  }
  context.deps.stdout.write(`${value}\n`);
}

async function set(context: Context, text: string, valueText: string): Promise<void> {
  const { parseSettingName, parseSetting } = await import('../config/settings.js');
  const { setSetting } = await import('../config/store.js');
  const name = parseSettingName(text);
  const value = parseSetting(name, valueText);
  const { profile, files } = await target(context);
  await setSetting(files, profile, name, value);
}

async function unset(context: Context, text: string): Promise<void> {
  const { parseSettingName } = await import('../config/settings.js');
  const { unsetSetting } = await import('../config/store.js');
  const name = parseSettingName(text);
  const { profile, files } = await target(context);
  await unsetSetting(files, profile, name);
}

async function list(context: Context): Promise<void> {
  const { SETTING_NAMES } = await import('../config/settings.js');
  const { readProfileSettings } = await import('../config/store.js');
  const { profile, files } = await target(context);
  const settings = readProfileSettings(files, profile);
  const lines = SETTING_NAMES.filter((name) => settings[name] !== undefined).map((name) => `${name}=${settings[name]}\n`);
  context.deps.stdout.write(lines.join(''));
}

async function printPath(context: Context): Promise<void> {
  const { files } = await target(context);
  context.deps.stdout.write(`${files.dir}\n`);
}
