import { MAX_VERSIONS } from './limits.js';
import { Random } from './random.js';
import { detailResponse, jsonResponse, type SandboxResponse } from './responses.js';
import type { AddedVersion, ResultsDataset } from './results-dataset.js';
import { formatLocalMicros } from './time.js';
import { QueryReader } from './validation.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * The sandbox's own routes, under /__sandbox/ (outside the service's /api/v1): a test or a
 * demo makes the data change with them. They are not the service's: no key, and no rate
 * limit, fault or latency applies to them (server.ts), so that a test's "now add a version"
 * always happens, once.
 */
export const CONTROL_PREFIX = '/__sandbox/';
const VERSIONS_PATH = `${CONTROL_PREFIX}versions`;
/** Seed salt of the stream that picks groups for `groups=N`. */
const PICK = 0x91c;
/** At most this many new items per added version (`added=N`). */
const MAX_ADDED = 10_000;

export function isControlPath(url: string | undefined): boolean {
  return url?.startsWith(CONTROL_PREFIX) ?? false;
}

/**
 * GET /__sandbox/versions lists the versions; POST /__sandbox/versions adds one to a group
 * (`exchange_name` and `fee_type`) or to `groups` groups picked from the seed; DELETE
 * /__sandbox/versions/{version_id} withdraws one. Parameters are in the query string. The
 * same seed and the same calls make the same versions, with ids no earlier run gave
 * (ResultsDataset.versionId).
 */
export class ControlRoute {
  /** `vocabulary`: how the answers spell exchanges, fee types and times, as the records do. */
  constructor(
    private readonly dataset: ResultsDataset,
    private readonly vocabulary: Vocabulary,
  ) {}

  serve(method: string | undefined, url: URL): SandboxResponse {
    const path = url.pathname;
    if (path === VERSIONS_PATH) {
      if (method === 'GET') return this.list();
      if (method === 'POST') return this.add(url.searchParams);
      return detailResponse(405, 'Method Not Allowed', { allow: 'GET, POST' });
    }
    if (path.startsWith(`${VERSIONS_PATH}/`)) {
      if (method !== 'DELETE') return detailResponse(405, 'Method Not Allowed', { allow: 'DELETE' });
      let versionId: string;
      try {
        versionId = decodeURIComponent(path.slice(VERSIONS_PATH.length + 1));
      } catch {
        return detailResponse(404, 'Not Found');
      }
      return this.withdraw(versionId);
    }
    return detailResponse(404, 'Not Found');
  }

  private list(): SandboxResponse {
    const data = this.dataset;
    const versions = [];
    for (let v = 0; v < data.versionCount; v++) {
      if (this.recordsOf(v) === 0) continue;
      versions.push({
        ...this.describe(v),
        scraped_time: this.vocabulary.formatScrapedTime(data.versionScrapedMicros[v]!),
        latest: data.versionIsLatest[v] === 1,
        withdrawn: data.versionWithdrawn[v] === 1,
      });
    }
    return jsonResponse(200, { versions, total_records: this.liveRecords() });
  }

  private add(params: URLSearchParams): SandboxResponse {
    const data = this.dataset;
    const reader = new QueryReader(params);
    const exchange = reader.last('exchange_name');
    const feeType = reader.last('fee_type');
    const groupCount = reader.integer('groups', { min: 1, max: data.groups.length, default: 1 });
    const added = reader.last('added') === undefined ? undefined : reader.integer('added', { min: 0, max: MAX_ADDED, default: 0 });
    if (reader.issues.length > 0) return jsonResponse(422, { detail: reader.issues });
    if ((exchange === undefined) !== (feeType === undefined) || (exchange !== undefined && params.has('groups'))) {
      return detailResponse(422, 'Name a group with both exchange_name and fee_type, or ask for groups=N, not both.');
    }

    let groups: number[];
    if (exchange !== undefined) {
      const group = data.groups.findIndex(
        (candidate) =>
          this.vocabulary.exchangeIds[candidate.venueIndex] === exchange && candidate.feeType.toLowerCase() === feeType!.toLowerCase(),
      );
      if (group < 0) return detailResponse(404, `No ${feeType} fee schedule at '${exchange}'.`);
      groups = [group];
    } else {
      groups = this.pickGroups(groupCount);
    }
    if (data.versionCount + groups.length > MAX_VERSIONS) {
      return detailResponse(409, `The sandbox holds at most ${MAX_VERSIONS} versions; it has ${data.versionCount}.`);
    }
    const versions = groups.map((group) => this.describeAdded(data.addVersion(group, added)));
    return jsonResponse(201, { versions, total_records: this.liveRecords() });
  }

  private withdraw(versionId: string): SandboxResponse {
    const data = this.dataset;
    const v = data.versionNumberOf(versionId);
    if (v === undefined || data.versionWithdrawn[v] === 1 || this.recordsOf(v) === 0) {
      return detailResponse(404, `Version '${versionId}' not found.`);
    }
    data.withdraw(v);
    const latest = data.latestVersionOf(data.versionGroup[v]!);
    return jsonResponse(200, {
      withdrawn: this.describe(v),
      latest_version_id: latest === undefined ? null : data.versionId(latest),
      total_records: this.liveRecords(),
    });
  }

  /** `count` distinct groups, in an order drawn from (seed, the number of versions so far). */
  private pickGroups(count: number): number[] {
    const random = new Random(this.dataset.seed, PICK, this.dataset.versionCount);
    const groups = this.dataset.groups.map((_, group) => group);
    for (let i = groups.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [groups[i], groups[j]] = [groups[j]!, groups[i]!];
    }
    return groups.slice(0, count);
  }

  private describe(v: number): { version_id: string; exchange_name: string; fee_type: string; records: number } {
    const data = this.dataset;
    return {
      version_id: data.versionId(v),
      exchange_name: this.vocabulary.exchangeIds[data.versionVenue[v]!]!,
      fee_type: this.vocabulary.enums.fee_type[data.versionFeeType[v]!]!,
      records: this.recordsOf(v),
    };
  }

  private describeAdded(added: AddedVersion): Record<string, unknown> {
    const data = this.dataset;
    const v = added.version;
    return {
      ...this.describe(v),
      scraped_time: this.vocabulary.formatScrapedTime(data.versionScrapedMicros[v]!),
      created_on: formatLocalMicros(data.versionCreatedMicros[v]!),
      derived_from: added.derivedFrom === undefined ? null : data.versionId(added.derivedFrom),
      changed: added.changed,
      added: added.added,
      removed: added.removed,
    };
  }

  private recordsOf(v: number): number {
    return this.dataset.versionStart[v + 1]! - this.dataset.versionStart[v]!;
  }

  /** What total_records is for a query with no filter. */
  private liveRecords(): number {
    let live = 0;
    for (let v = 0; v < this.dataset.versionCount; v++) {
      if (this.dataset.versionWithdrawn[v] === 0) live += this.recordsOf(v);
    }
    return live;
  }
}
