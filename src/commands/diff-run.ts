import { statSync } from 'node:fs';
import { amountDifference, parseAmount, plainDecimal, withParsedAmount } from '../api/amounts.js';
import { ANY_RESULT_FIELDS } from '../api/fields.js';
import type { ResultsQuery } from '../api/filters.js';
import type { ServiceClient } from '../api/client.js';
import { enumKey } from '../api/filter-spelling.js';
import { findVersionPair, type GroupVersion, type VersionChoice, type VersionPair } from '../api/group-versions.js';
import { recordIdOf } from '../api/record-id.js';
import type { ResultRecord } from '../api/types.js';
import { type Difference, diffVersions } from '../api/version-diff.js';
import type { ResultsSource } from '../api/walk.js';
import { walkVersion } from '../api/version-walk.js';
import type { Mirror } from '../mirror/mirror.js';
import type { Context } from './context.js';
import { EXIT_CODES, MktError, NotFoundError } from '../core/errors.js';
import type { Format } from '../output/formats.js';
import { serverText } from '../http/server-text.js';
import { validateColumns } from '../output/columns.js';
import { type Column, inOneBatch, type JsonObject, type TableColumn } from '../output/exporter.js';
import { writeDataset } from '../output/write.js';
import { checkKeptExchanges } from './known-exchanges.js';
import { outputOptions } from './output-options.js';
import { inServiceSpelling } from './service-spelling.js';
import { openOffline, withAmountFields } from './results-run.js';

export interface DiffRequest {
  exchange: string;
  feeType: string;
  from?: VersionChoice;
  to?: VersionChoice;
  mirror?: string;
  /** `--online`: the service, never the mirror; `--offline`: the mirror, nothing sent. */
  source?: 'online' | 'offline';
  exitCode: boolean;
  parseAmounts: boolean;
}

/** CSV and Parquet: one row per changed field, and one per added or removed item (its `field` empty). */
const CHANGE_COLUMNS: readonly Column[] = [
  { name: 'change', kind: 'string', nullable: false },
  { name: 'exchange_name', kind: 'string', nullable: false },
  { name: 'fee_type', kind: 'string', nullable: false },
  { name: 'item', kind: 'string', nullable: false },
  { name: 'field', kind: 'string', nullable: true },
  { name: 'was', kind: 'string', nullable: true },
  { name: 'now', kind: 'string', nullable: true },
  { name: 'effective', kind: 'timestamp_utc', nullable: false },
  { name: 'from_version', kind: 'string', nullable: false },
  { name: 'to_version', kind: 'string', nullable: false },
  { name: 'before_id', kind: 'string', nullable: true },
  { name: 'after_id', kind: 'string', nullable: true },
];
const AMOUNT_CHANGE_COLUMNS: readonly Column[] = [
  { name: 'amount_change', kind: 'number', nullable: true },
  { name: 'amount_unit', kind: 'string', nullable: true },
];

/** The table: a fee-change bulletin. */
const BULLETIN_COLUMNS: readonly TableColumn[] = [
  { name: 'exchange', header: 'Exchange' },
  { name: 'item', header: 'Item', fit: 'wrap' },
  { name: 'field', header: 'Field' },
  { name: 'was', header: 'Was', fit: 'words' },
  { name: 'now', header: 'Now', fit: 'words' },
  { name: 'effective', header: 'Effective', priority: 1 },
];
const BULLETIN_FIELDS: readonly Column[] = ['exchange', 'item', 'field', 'was', 'now', 'effective'].map((name) => ({ name, kind: 'string', nullable: true }));

/** The identity fields that say, in a few words, which line item a row is about. */
const ITEM_WORDS = ['fee_charge_type', 'fee_action', 'fee_participant', 'fee_symbol_type', 'fee_trade_type', 'fee_symbol', 'fee_monthly_volume'] as const;

/**
 * What `--columns` names in JSON and NDJSON: the fields of a difference object, `before.` and
 * `after.` each record field of either shape, whatever the data holds (a first difference that is an addition has
 * no `before` fields to derive names from).
 */
function differenceColumns(amounts: boolean): Column[] {
  const side = (name: string): Column[] => (amounts ? withAmountFields(ANY_RESULT_FIELDS) : ANY_RESULT_FIELDS).map((field) => ({ ...field, name: `${name}.${field.name}`, nullable: true }));
  return [
    { name: 'change', kind: 'string', nullable: false },
    ...side('before'),
    ...side('after'),
    { name: 'fields', kind: 'string', nullable: false },
    ...(amounts ? [{ name: 'amount_change', kind: 'number', nullable: true } as const] : []),
  ];
}

/** The columns of diff's output in a format: what `--columns` may name. */
function columnsOf(format: Format, amounts: boolean): readonly Column[] {
  if (format === 'json' || format === 'ndjson') return differenceColumns(amounts);
  if (format === 'table') return BULLETIN_FIELDS;
  return amounts ? [...CHANGE_COLUMNS, ...AMOUNT_CHANGE_COLUMNS] : CHANGE_COLUMNS;
}

/**
 * `mkt diff`: what changed between two versions of one fee schedule. From the mirror when it
 * holds the group and the service has no other newest version, otherwise from the results
 * endpoint, reading only the pages it needs.
 */
export async function runDiff(context: Context, given: DiffRequest): Promise<void> {
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  const format = output.format;
  const amounts = given.parseAmounts;
  const columns = columnsOf(format, amounts);
  const select = context.globals.columns;
  if (select) validateColumns(select, columns);
  // A --mirror that is no file is a usage mistake, said before anything is sent.
  if (given.mirror !== undefined && given.source !== 'online') (await import('../mirror/mirror.js')).checkMirrorPath(given.mirror);
  // The fee type as the service spells it (equity for the 2026 edition), as results sends its filter values.
  const spelt = await inServiceSpelling(context, { fee_type: [given.feeType] }, { offline: given.source === 'offline' });
  const request: DiffRequest = { ...given, feeType: spelt.fee_type?.[0] ?? given.feeType };
  const known = await checkKeptExchanges(context, [request.exchange]);
  const group = { exchange: request.exchange, feeType: request.feeType };
  const { source, origin, service } = await sourceOf(context, request, output.outputPath);
  // Where the answer comes from, for a person watching or a --verbose log, not for a pipeline's stderr.
  if (context.log.isVerbose) context.log.debug(origin);
  else if (context.showsProgress) context.log.info(origin);
  let pair: VersionPair;
  try {
    const byId = service && (await versionPairById(service, group, request));
    pair = byId ?? (await findVersionPair(service ? withSources(service) : source, group, { from: request.from, to: request.to }));
  } catch (error) {
    throw known.explain(request.exchange, error);
  }
  known.warnOfAnswered();
  context.log.debug(`${pair.requests} ${pair.requests === 1 ? 'page' : 'pages'} read for ${request.exchange} ${request.feeType}`);
  if (!pair.from) {
    const version = versionText(pair.to, settings.apiKey);
    const what = request.to ? `has no version before ${version}` : `has one version only (${version})`;
    context.log.info(`${request.exchange} ${request.feeType} ${what}: nothing to compare`);
  }
  const from = pair.from ?? pair.to;
  const differences = diffVersions(from.records, pair.to.records);
  let rows: JsonObject[];
  if (format === 'json' || format === 'ndjson') rows = differences.map((difference) => differenceObject(difference, amounts));
  else if (format === 'table') rows = differences.flatMap((difference) => bulletinRows(difference, pair.to, amounts));
  else rows = differences.flatMap((difference) => changeRows(difference, from, pair.to, amounts));
  const tableColumns = format === 'table' ? BULLETIN_COLUMNS : undefined;
  await writeDataset({ shape: 'list', batches: inOneBatch(rows), columns, ...(tableColumns ? { tableColumns } : {}), select }, output);
  if (pair.from) context.log.info(summaryLine(request, pair.from, pair.to, differences, settings.apiKey));
  const cited = sourceLine(pair.to, differences, settings.apiKey);
  if (cited) context.log.info(cited);
  if (request.exitCode && differences.length > 0) context.exitCode = EXIT_CODES.changes;
}

/** Where diff reads the group's versions, and the line that says so. */
interface DiffSource {
  source: ResultsSource;
  origin: string;
  /** The service, when it is the source. */
  service?: ServiceClient;
}

/** The group's newest record, the one a source's walk would begin with: the same in the mirror as in the service when the mirror is current. */
const newestOfGroup = (request: DiffRequest): ResultsQuery => ({
  exchange_name: [request.exchange],
  fee_type: [request.feeType],
  order_by: 'scraped_time',
  order_dir: 'desc',
  page_size: 1,
  page_number: 0,
});

/**
 * The mirror, when it holds the group and one request shows the service's newest version of it is
 * the mirror's; otherwise the service. `--online` is the service alone; `--offline` the mirror
 * alone, unchecked. A failure of that one request is the command's, as any request's: an answer
 * from a mirror the service could not vouch for may be stale.
 */
async function sourceOf(context: Context, request: DiffRequest, outputPath: string | undefined): Promise<DiffSource> {
  const fromService = 'from the service';
  const fromTheService = async (origin: string): Promise<DiffSource> => {
    const client = await context.client();
    return { source: client, origin, service: client };
  };
  if (request.source === 'online') return fromTheService(fromService);
  if (request.source === 'offline') {
    const { beginOpening } = await import('./mirror-location.js');
    const opening = await beginOpening(context, request.mirror);
    const source = await openOffline(newestOfGroup(request), opening, outputPath, await context.settings());
    const synced = await syncedTime(await opening.opened);
    return { source, origin: `from the mirror ${opening.path}, synced ${synced}; the service was not asked (--offline): it may hold a newer version` };
  }
  const held = await mirrorHolding(context, request, outputPath);
  if (!held) return fromTheService(fromService);
  const client = await context.client();
  const [service, mirrored] = await Promise.all([client.fetchResultsPage(newestOfGroup(request)), held.source.fetchResultsPage(newestOfGroup(request))]);
  const mirror = `the mirror ${held.path}, synced ${held.synced}`;
  if (service.data[0]?.version_id === mirrored.data[0]?.version_id) return { source: held.source, origin: `from ${mirror}` };
  context.log.debug(`the service's newest ${request.exchange} ${request.feeType} version is not the mirror's`);
  return { source: client, origin: `from the service: ${mirror}, is behind it on ${request.exchange} ${request.feeType}`, service: client };
}

/** The service's results with each record's source (2026): the newer version's document and pages, said under the bulletin. */
function withSources(service: ServiceClient): ResultsSource {
  return { host: service.host, fetchResultsPage: (query) => service.fetchResultsPage({ ...query, include_source: true }) };
}

/**
 * Both versions by their ids, from the version endpoint (the 2026 reference), when --from and
 * --to name them and the service has it; undefined otherwise, and the group's results are read.
 */
async function versionPairById(service: ServiceClient, group: { exchange: string; feeType: string }, request: DiffRequest): Promise<VersionPair | undefined> {
  if (!request.from || !request.to || !('versionId' in request.from) || !('versionId' in request.to)) return undefined;
  const to = await readVersion(service, group, request.to.versionId);
  if (to === undefined) return undefined;
  const from = await readVersion(service, group, request.from.versionId);
  if (from === undefined) return undefined;
  return { from: from.version, to: to.version, requests: from.requests + to.requests };
}

/** One version of the group, whole, and the pages read; undefined when the service has no version endpoint. */
async function readVersion(service: ServiceClient, group: { exchange: string; feeType: string }, versionId: string): Promise<{ version: GroupVersion; requests: number } | undefined> {
  let requests = 0;
  const walk = await walkVersion(service, versionId, { include_source: true }, {
    warn: () => {},
    onPage: (progress) => {
      requests = progress.page;
    },
  });
  if (walk === undefined) return undefined;
  const records: ResultRecord[] = [];
  for await (const batch of walk) records.push(...batch);
  const newest = records.reduce<ResultRecord | undefined>((found, record) => (!found || record.scraped_time > found.scraped_time ? record : found), undefined);
  // Another fee schedule's version would be compared with this one's item by item: refused.
  const other = records.find((record) => enumKey(record.exchange_name) !== enumKey(group.exchange) || enumKey(record.fee_type) !== enumKey(group.feeType));
  if (newest === undefined || other !== undefined) {
    throw new NotFoundError(`${group.exchange} ${group.feeType} has no version ${versionId}${other ? `: it is a version of ${serverText(`${other.exchange_name} ${other.fee_type}`, undefined)}` : ''}`);
  }
  return { version: { version_id: versionId, scraped_time: newest.scraped_time, records }, requests };
}

/**
 * `source of VERSION: DOCUMENT, LINK, pages 12, 17`: where the newer version's fee schedule is
 * published, and the pages of the items that changed or were added, where its records say
 * (2026, asked with include_source). Undefined when they do not.
 */
function sourceLine(to: GroupVersion, differences: readonly Difference[], key: string | undefined): string | undefined {
  const citation = (record: ResultRecord | null | undefined) => record as unknown as Partial<Record<'source_document' | 'source_link' | 'page_number', unknown>> | null | undefined;
  const cited = to.records.map(citation).find((record) => typeof record?.source_link === 'string' || typeof record?.source_document === 'string');
  if (!cited) return undefined;
  const where = [cited.source_document, cited.source_link].filter((text): text is string => typeof text === 'string' && text !== '');
  const pages = [...new Set(differences.map((difference) => citation(difference.after)?.page_number).filter((page): page is number => Number.isSafeInteger(page)))].sort((a, b) => a - b);
  const onPages = pages.length === 0 ? '' : `, ${pages.length === 1 ? 'page' : 'pages'} ${pages.join(', ')}`;
  return serverText(`source of ${to.version_id}: ${where.join(', ')}${onPages}`, key);
}

/** When the mirror's last sync finished, to the second, in UTC: `2026-11-26T23:20:05Z`. */
async function syncedTime(mirror: Mirror): Promise<string> {
  const [finished] = await mirror.column('SELECT epoch_ms(max(finished_at)) FROM mkt_syncs');
  return finished === null || finished === undefined ? 'never' : `${new Date(Number(finished)).toISOString().slice(0, 19)}Z`;
}

/**
 * The mirror as a source of results, when it holds the whole group: it exists, answers for this
 * service, and its filters take in every version of the exchange's fee type. Otherwise undefined
 * (the service is asked), but for a mirror named with --mirror, which must hold it.
 */
async function mirrorHolding(context: Context, request: DiffRequest, outputPath: string | undefined): Promise<{ source: ResultsSource; path: string; synced: string } | undefined> {
  const { checkNotWritingTheMirror, mirrorOf, serviceOf } = await import('./mirror-location.js');
  const named = request.mirror !== undefined;
  const path = await mirrorOf(context, request.mirror);
  // Even a diff the service answers would put its answer in place of the mirror.
  checkNotWritingTheMirror(outputPath, path);
  if (!named && !statSync(path, { throwIfNoEntry: false })?.isFile()) return undefined;
  const [{ Mirror: MirrorFile }, { outsideOfMirror, mirrorFiltersOf }, { MirrorResults }] = await Promise.all([
    import('../mirror/mirror.js'),
    import('../mirror/mirror-filters.js'),
    import('../mirror/offline-results.js'),
  ]);
  let mirror: Mirror;
  try {
    mirror = await MirrorFile.open(path, { write: false, signal: context.signal });
  } catch (error) {
    // No DuckDB, or a sync writing it: the service answers instead.
    if (named) throw error;
    context.log.debug(`not reading the mirror: ${(error as Error).message}`);
    return undefined;
  }
  context.defer(() => mirror.close());
  const identity = mirror.identity;
  const asked = mirrorFiltersOf({ exchange_name: [request.exchange], fee_type: [request.feeType] });
  const outside = !identity
    ? 'it has not finished its first sync'
    : identity.service !== serviceOf(await context.settings())
      ? `it mirrors ${identity.service}`
      : outsideOfMirror(asked, JSON.parse(identity.filters));
  if (outside === undefined) return { source: new MirrorResults(mirror), path, synced: await syncedTime(mirror) };
  if (named) throw new MktError(`the mirror ${path} does not hold ${request.exchange} ${request.feeType}: ${outside}`);
  context.log.debug(`not reading the mirror ${path}: ${outside}`);
  return undefined;
}

/** A version as the service named it, cleaned of `key` and control characters. */
const versionText = (version: GroupVersion, key: string | undefined): string => serverText(`${version.version_id}, scraped ${version.scraped_time}`, key);

/** `NYSE Equity: 3 changed, 1 added, 0 removed · 1b2c… (2025-05-01) → 9f8e… (2025-06-01)`. */
function summaryLine(request: DiffRequest, from: GroupVersion, to: GroupVersion, differences: readonly Difference[], key: string | undefined): string {
  const count = (change: Difference['change']) => differences.filter((difference) => difference.change === change).length;
  const side = (version: GroupVersion) => serverText(`${version.version_id} (${version.scraped_time.slice(0, 10)})`, key);
  const what = differences.length === 0 ? 'no differences' : `${count('changed')} changed, ${count('added')} added, ${count('removed')} removed`;
  return `${request.exchange} ${request.feeType}: ${what} · ${side(from)} → ${side(to)}`;
}

/** How much a changed amount moved, when both sides are one amount in one unit. */
function amountChange(difference: Difference): { value: number; unit: string | null } | undefined {
  if (difference.change !== 'changed' || !difference.fields.includes('fee_amount')) return undefined;
  const before = parseAmount(difference.before?.fee_amount);
  const after = parseAmount(difference.after?.fee_amount);
  if (before.value === null || after.value === null || before.unit !== after.unit) return undefined;
  return { value: amountDifference(before.value, after.value), unit: after.unit };
}

/** `+0.0002 USD`, `-0.5 %`. */
function signedAmount(change: { value: number; unit: string | null }): string {
  return `${change.value > 0 ? '+' : ''}${plainDecimal(change.value)}${change.unit ? ` ${change.unit}` : ''}`;
}

/** JSON and NDJSON: the contract's object; with --parse-amounts, parsed amounts and `amount_change`. */
function differenceObject(difference: Difference, amounts: boolean): JsonObject {
  if (!amounts) return { ...difference };
  const change = amountChange(difference);
  return {
    change: difference.change,
    before: difference.before && withParsedAmount(difference.before),
    after: difference.after && withParsedAmount(difference.after),
    fields: difference.fields,
    amount_change: change ? change.value : null,
  };
}

/** Values that say nothing of which item it is. */
const NO_WORDS = new Set(['', 'All', 'N/A'].map(enumKey));

/** An item in a few words: `Per Share · Take · Market Maker · ETF`. */
function itemWords(record: ResultRecord): string {
  const words = ITEM_WORDS.map((name) => record[name]).filter((value): value is string => typeof value === 'string' && !NO_WORDS.has(enumKey(value)));
  return [...new Set(words)].join(' · ') || record.fee_category;
}

/** A field's value as text in a row: null stays null. */
const textOf = (value: unknown): string | null => (value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value));

function bulletinRows(difference: Difference, to: GroupVersion, amounts: boolean): JsonObject[] {
  const record = (difference.after ?? difference.before) as ResultRecord;
  const base = { exchange: record.exchange_name, item: itemWords(record), effective: to.scraped_time.slice(0, 10) };
  if (difference.change === 'added') return [{ ...base, field: 'new item', was: '', now: record.fee_amount ?? '' }];
  if (difference.change === 'removed') return [{ ...base, field: 'removed', was: record.fee_amount ?? '', now: '' }];
  const change = amounts ? amountChange(difference) : undefined;
  return difference.fields.map((field) => {
    const was = textOf((difference.before as unknown as JsonObject)[field]) ?? '';
    const now = textOf((difference.after as unknown as JsonObject)[field]) ?? '';
    return { ...base, field, was, now: field === 'fee_amount' && change ? `${now} (${signedAmount(change)})` : now };
  });
}

function changeRows(difference: Difference, from: GroupVersion, to: GroupVersion, amounts: boolean): JsonObject[] {
  const record = (difference.after ?? difference.before) as ResultRecord;
  const change = amounts ? amountChange(difference) : undefined;
  // An added or removed item is one row without a field, its amount as was or now.
  const fields = difference.change === 'changed' ? difference.fields : [null];
  return fields.map((field) => {
    const valueOf = (side: ResultRecord | null) => textOf((side as unknown as JsonObject | null)?.[field ?? 'fee_amount']);
    const row: JsonObject = {
      change: difference.change,
      exchange_name: record.exchange_name,
      fee_type: record.fee_type,
      item: itemWords(record),
      field,
      was: valueOf(difference.before),
      now: valueOf(difference.after),
      effective: to.scraped_time,
      from_version: from.version_id,
      to_version: to.version_id,
      before_id: difference.before ? recordIdOf(difference.before) : null,
      after_id: difference.after ? recordIdOf(difference.after) : null,
    };
    if (amounts) {
      const moved = field === 'fee_amount' ? change : undefined;
      Object.assign(row, { amount_change: moved?.value ?? null, amount_unit: moved?.unit ?? null });
    }
    return row;
  });
}
