import { NotFoundError } from '../core/errors.js';
import { parseTimestampMicros } from '../core/timestamps.js';
import { PAGE_SIZE, type ResultsQuery } from './filters.js';
import { IdSet } from './id-set.js';
import { malformedAnswer, recordNamed } from './results-page.js';
import { recordIdOf } from './record-id.js';
import type { ResultRecord } from './types.js';
import type { ResultsSource } from './walk.js';

/*
 * The two versions of one fee schedule (an exchange and a fee type) that `mkt diff` compares,
 * read from the results endpoint newest first and only as far as they need: each page costs a
 * request of a rate-limited key.
 */

/** `--from` or `--to`: a version by its id, or the newest version scraped on or before a date. */
export type VersionChoice = { versionId: string } | { date: string };

/** One version of the group, with every record of it. */
export interface GroupVersion {
  version_id: string;
  scraped_time: string;
  records: ResultRecord[];
}

export interface VersionPair {
  /** The older side; undefined when the group has one version only. */
  from?: GroupVersion;
  to: GroupVersion;
  /** Pages read. */
  requests: number;
}

interface SeenVersion extends GroupVersion {
  micros: bigint;
}

/** The first instant after a date's day, in microseconds since 1970 (UTC). */
function dayAfterMicros(date: string): bigint {
  return BigInt(Date.parse(`${date}T00:00:00Z`) + 86_400_000) * 1000n;
}

/** The later of the dates chosen, when every side chosen is a date: the service need not send newer versions. */
function lastDate(from: VersionChoice | undefined, to: VersionChoice | undefined): string | undefined {
  if (!to || !('date' in to)) return undefined;
  if (from && !('date' in from)) return undefined;
  return from && from.date > to.date ? from.date : to.date;
}

function describe(choice: VersionChoice): string {
  return 'date' in choice ? `scraped on or before ${choice.date}` : choice.versionId;
}

/**
 * Reads the group's records by `scraped_time`, newest first, a page at a time, until the two
 * versions are known whole: a version is whole once a record scraped before it has been seen, or
 * the pages have run out. By default `to` is the newest version and `from` the one before it.
 */
export async function findVersionPair(
  source: ResultsSource,
  group: { exchange: string; feeType: string },
  choice: { from?: VersionChoice; to?: VersionChoice },
): Promise<VersionPair> {
  const query: ResultsQuery = {
    exchange_name: [group.exchange],
    fee_type: [group.feeType],
    order_by: 'scraped_time',
    order_dir: 'desc',
    page_size: PAGE_SIZE.max,
  };
  const endDate = lastDate(choice.from, choice.to);
  if (endDate) query.end_date = endDate;

  const versions = new Map<string, SeenVersion>();
  const ids = new IdSet();
  let oldestSeen: bigint | undefined;
  let requests = 0;
  const pick = (settled: SeenVersion[], wanted: VersionChoice | undefined, after?: SeenVersion): SeenVersion | undefined => {
    if (wanted === undefined) return after ? settled[settled.indexOf(after) + 1] : settled[0];
    if ('versionId' in wanted) return settled.find((version) => version.version_id === wanted.versionId);
    const before = dayAfterMicros(wanted.date);
    return settled.find((version) => version.micros < before);
  };

  for (let pageNumber = 0; ; pageNumber++) {
    const page = await source.fetchResultsPage({ ...query, page_number: pageNumber });
    requests++;
    for (const record of page.data) {
      const id = recordIdOf(record);
      if (!ids.add(id)) continue; // a page shifted by a version that arrived meanwhile
      const micros = typeof record.scraped_time === 'string' ? parseTimestampMicros(record.scraped_time) : undefined;
      if (micros === undefined) throw malformedAnswer(source.host, `${recordNamed(id)} has a scraped_time that is not a timestamp`);
      let version = versions.get(record.version_id);
      if (!version) versions.set(record.version_id, (version = { version_id: record.version_id, scraped_time: record.scraped_time, micros, records: [] }));
      if (micros > version.micros) Object.assign(version, { micros, scraped_time: record.scraped_time });
      version.records.push(record);
      if (oldestSeen === undefined || micros < oldestSeen) oldestSeen = micros;
    }
    const ended = page.data.length === 0 || pageNumber >= page.total_pages - 1;
    // The versions known whole, newest first (ties by version_id, as every run must agree).
    const settled = [...versions.values()]
      .filter((version) => ended || (oldestSeen !== undefined && version.micros > oldestSeen))
      .sort((a, b) => (a.micros === b.micros ? (a.version_id < b.version_id ? 1 : -1) : a.micros < b.micros ? 1 : -1));
    const to = pick(settled, choice.to);
    const from = to && pick(settled, choice.from, choice.from === undefined ? to : undefined);
    if (to && from) return { from: strip(from), to: strip(to), requests };
    if (!ended) continue;
    if (versions.size === 0 && endDate) {
      throw new NotFoundError(`${group.exchange} ${group.feeType} has no version scraped on or before ${endDate}`, { hint: versionsHint(group) });
    }
    if (versions.size === 0) {
      throw new NotFoundError(`no results for ${group.exchange} ${group.feeType}`, {
        hint: `\`mkt results --exchange-name ${group.exchange}\` lists the fee types it has.`,
      });
    }
    if (!to) throw new NotFoundError(`${group.exchange} ${group.feeType} has no version ${describe(choice.to as VersionChoice)}`, { hint: versionsHint(group) });
    if (choice.from) throw new NotFoundError(`${group.exchange} ${group.feeType} has no version ${describe(choice.from)}`, { hint: versionsHint(group) });
    return { to: strip(to), requests };
  }
}

function versionsHint(group: { exchange: string; feeType: string }): string {
  return `Its versions: mkt results --exchange-name ${group.exchange} --fee-type ${group.feeType} --all --columns version_id,scraped_time -f csv | uniq`;
}

function strip({ version_id, scraped_time, records }: SeenVersion): GroupVersion {
  return { version_id, scraped_time, records };
}
