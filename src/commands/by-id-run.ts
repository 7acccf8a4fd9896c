import { existsSync } from 'node:fs';
import type { Context } from './context.js';
import { resultFieldsOf } from '../api/fields.js';
import type { ServiceClient } from '../api/client.js';
import { recordNamed } from '../api/results-page.js';
import type { Includes } from '../api/results-query.js';
import { walkVersion } from '../api/version-walk.js';
import { NotFoundError } from '../core/errors.js';
import { serverText } from '../http/server-text.js';
import { inOneBatch } from '../output/exporter.js';
import { writeRecordView } from '../output/views/index.js';
import { resultsTableColumns } from '../output/views/results.js';
import { stdoutTarget, writeDataset } from '../output/write.js';
import { mirrorOf, serviceOf } from './mirror-location.js';
import { outputOptions } from './output-options.js';

/** What `mkt results get` and `mkt version` were asked for. */
export interface ByIdRequest {
  id: string;
  includes: Includes;
  /** `mkt version --allow-drift`: accept a version whose pages change while they are read. */
  allowDrift?: boolean;
}

/** The endpoints of the 2026 reference these commands use, as a message names them. */
const RECORD_ENDPOINT = 'GET /api/v1/fee-schedule-results/{record_id}';
const VERSION_ENDPOINT = 'GET /api/v1/fee-schedule-results/versions/{version_id}';

/** `mkt results get <id>`: the record from the service, or from the mirror when the service has no such endpoint. */
export async function runResultGet(context: Context, request: ByIdRequest): Promise<void> {
  const { globals } = context;
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  const client = await context.client();
  const record = ((await client.fetchResult(request.id, request.includes))
    ?? (await fromTheMirror(context, client, RECORD_ENDPOINT, 'id', request.id, recordNamed(request.id)))[0]) as Record<string, unknown>;
  if (output.format === 'table' && !globals.output && !globals.columns) {
    await writeRecordView(record, stdoutTarget(output));
    return;
  }
  // The column set of the record's shape (src/api/fields.ts), as results writes it.
  await writeDataset({ shape: 'object', batches: inOneBatch([record]), columns: resultFieldsOf(record), select: globals.columns }, output);
}

/**
 * `mkt version <version_id>`: every record of the version, walked page by page as `results --all`
 * walks (walkVersion), or from the mirror when the service has no such endpoint.
 */
export async function runVersion(context: Context, request: ByIdRequest): Promise<void> {
  const { globals } = context;
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  const client = await context.client();
  const walk = await walkVersion(client, request.id, request.includes, {
    allowDrift: request.allowDrift === true,
    warn: (message) => context.log.warn(message),
  });
  const batches = walk
    ?? inOneBatch(await fromTheMirror(context, client, VERSION_ENDPOINT, 'version_id', request.id, `version ${serverText(request.id, settings.apiKey)}`));
  await writeDataset({ shape: 'list', batches, columns: (first) => resultFieldsOf(first, walk ? '2026' : undefined), select: globals.columns, tableColumns: resultsTableColumns(false) }, output);
}

/**
 * The records the profile's mirror holds where `field` is `value`, after the service answered
 * that it does not offer `endpoint` (a service of the first shape): said in one line on stderr.
 * A mirror of another service holds none of this one's. No mirror, or none held: exit 4.
 */
async function fromTheMirror(
  context: Context,
  client: ServiceClient,
  endpoint: string,
  field: 'id' | 'version_id',
  value: string,
  what: string,
): Promise<Record<string, unknown>[]> {
  const notOffered = `${client.host} does not offer ${endpoint}`;
  const path = await mirrorOf(context, undefined);
  if (!existsSync(path)) throw new NotFoundError(`${notOffered}, and there is no mirror at ${path} to ask for ${what}`);
  const { Mirror } = await import('../mirror/mirror.js');
  const mirror = await Mirror.open(path, { write: false, signal: context.signal });
  context.defer(() => mirror.close());
  const sameService = mirror.syncedIdentity().service === serviceOf(await context.settings());
  const records = sameService ? await mirror.recordsWhere(field, value) : [];
  if (records.length === 0) throw new NotFoundError(`${notOffered}, and the mirror ${path} holds no ${what}`);
  context.log.warn(`${notOffered}: ${what} from the mirror ${path}`);
  return records;
}
