import { readFileSync } from 'node:fs';
import { ENUM_FILTER_NAMES, type ResultsQuery } from '../api/filters.js';
import { shapeOfRecord } from '../api/record-id.js';
import { groupDigits } from '../core/digits.js';
import { MktError, UsageError } from '../core/errors.js';
import { isJsonObject } from '../core/json-object.js';
import { nearestValue } from '../core/nearest.js';
import { ChunkSink, isBrokenPipe } from '../output/sink.js';
import { bookmarkOf, NO_BOOKMARK } from '../singer/bookmark.js';
import { discoveredCatalog, SELECT_ALL, selectionOf, STREAM } from '../singer/catalog.js';
import { runTap, type TapSummary } from '../singer/tap.js';
import type { Context } from './context.js';
import { type FilterFlags, toFilterQuery } from './results.js';
import { inServiceSpelling } from './service-spelling.js';

/** A tap's config file: which service, and which of its results. */
export interface TapConfig {
  base_url?: string;
  profile?: string;
  /** Checked, but for the enumerated values' spelling, which the service's answer decides. */
  filters: ResultsQuery;
}

/** The results filters a config may hold, by the service's parameter names, and the flag each stands for. */
const LIST_SETTINGS = ['exchange_name', 'supplier_name', ...ENUM_FILTER_NAMES] as const;
const SETTINGS = ['base_url', 'profile', ...LIST_SETTINGS, 'start_date', 'end_date', 'latest_only'] as const;

/** Setting names that would hold a secret: the key belongs in the profile or MKT_API_KEY, which a config file shared with a pipeline is not. */
const SECRET_SETTING = /key|token|secret|password|credential|auth/i;

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** A JSON file named by a flag, or a usage error that says which and why. */
function readJsonFile(flag: string, file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag} ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : `cannot read it (${code ?? 'error'})`}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag} ${file} is not JSON: ${(error as Error).message}`);
  }
}

/** The config of `--config FILE` (none: `{}`), checked whole before anything is sent. */
export function readTapConfig(file: string | undefined): TapConfig {
  const json = file === undefined ? {} : readJsonFile('--config', file);
  const where = `the config ${file}`;
  if (!isJsonObject(json)) throw new UsageError(`${where} is not a JSON object`);
  const flags: FilterFlags & Record<string, unknown> = {};
  const config: TapConfig = { filters: {} };
  for (const [name, value] of Object.entries(json)) {
    // A runner may write a setting it has no value for as null.
    if (value === null) continue;
    if (!(SETTINGS as readonly string[]).includes(name)) {
      if (SECRET_SETTING.test(name)) {
        throw new UsageError(`${where} holds "${name}": mkt tap never reads a key from its config`, {
          hint: 'Take it out of the file, and keep the key in the profile (`mkt auth login`) or in MKT_API_KEY.',
        });
      }
      const suggestion = nearestValue(name, SETTINGS);
      throw new UsageError(`${where} has an unknown setting "${name}"${suggestion ? `; did you mean ${suggestion}?` : ''}`, {
        hint: `Settings: ${SETTINGS.join(', ')}.`,
      });
    }
    const wrongType = (what: string) => new UsageError(`${where}: ${name} must be ${what}`);
    if (name === 'base_url' || name === 'profile') {
      if (typeof value !== 'string' || value === '') throw wrongType('a non-empty string');
      config[name] = value;
    } else if (name === 'latest_only') {
      if (typeof value !== 'boolean') throw wrongType('true or false');
      flags.latestOnly = value;
    } else if (name === 'start_date' || name === 'end_date') {
      if (typeof value !== 'string') throw wrongType('a date written YYYY-MM-DD');
      flags[camel(name)] = value;
    } else {
      const values = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(values) || values.length === 0 || !values.every((item) => typeof item === 'string' && item.trim() !== '')) {
        throw wrongType('a value or a list of values');
      }
      flags[camel(name)] = values;
    }
  }
  config.filters = toFilterQuery(flags);
  return config;
}

export interface TapCommandRequest {
  config: TapConfig;
  discover: boolean;
  state?: string;
  catalog?: string;
}

export async function runTapCommand(context: Context, request: TapCommandRequest): Promise<void> {
  if (context.globals.sandbox && request.config.base_url !== undefined) {
    throw new UsageError('--sandbox runs its own server: leave base_url out of the config');
  }
  const selection = request.catalog === undefined ? SELECT_ALL : selectionOf(readJsonFile('--catalog', request.catalog), request.catalog);
  const bookmark = request.state === undefined ? NO_BOOKMARK : bookmarkOf(readJsonFile('--state', request.state), request.state);
  if (!request.discover && !selection.streamSelected) {
    context.log.info(`the catalog ${request.catalog} selects no stream: nothing to send`);
    return;
  }
  const filters = await inServiceSpelling(context, request.config.filters);
  const client = await context.client();
  const sink = new ChunkSink(context.deps.stdout);
  let summary: TapSummary | undefined;
  try {
    if (request.discover) {
      // The records' shape decides the stream's key and fields: one record tells it, or the envelope when there is none.
      const page = await client.fetchResultsPage({ ...filters, page_size: 1 });
      sink.write(`${JSON.stringify(discoveredCatalog(page.data[0] === undefined ? page.shape : shapeOfRecord(page.data[0])), null, 2)}\n`);
    } else {
      summary = await runTap(client, { filters, bookmark, stateFile: request.state ?? '', selection, now: context.deps.now }, sink);
    }
    await sink.close();
  } catch (error) {
    if (!isBrokenPipe(error)) {
      // The messages queued before the failure are whole: the target takes them, and the last STATE among them is where the next run starts.
      await sink.close().catch(() => {});
      throw error;
    }
    throw new MktError('the target stopped reading the messages (a broken pipe)', { hint: 'See why the Singer target ended: the last STATE it took is where the next run starts.' });
  } finally {
    sink.detach();
  }
  if (summary) context.log.info(`sent ${groupDigits(summary.records)} records of ${STREAM} in ${groupDigits(summary.requests)} request${summary.requests === 1 ? '' : 's'}`);
}
