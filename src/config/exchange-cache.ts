import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type FilterValues, isExchangeId, isFilterValue, type KnownExchange } from '../api/available-filters.js';
import { ENUM_FILTER_NAMES } from '../api/filters.js';
import { makeDirectory, replaceFile } from './store.js';

/** What `mkt exchanges` found, kept per profile for completion and did-you-mean. */
export interface ExchangeList {
  /** Where the list came from: the service's available filters, or the mirror. */
  source: 'service' | 'mirror';
  /** ISO 8601, when it was read. */
  fetchedAt: string;
  exchanges: KnownExchange[];
}

/** `<cache>/exchanges/<profile>.json`: profile names are safe file names (src/config/settings.ts). */
export function exchangeListFile(cacheDir: string, profile: string): string {
  return path.join(cacheDir, 'exchanges', `${profile}.json`);
}

/**
 * A kept file's JSON, or undefined when there is none or it cannot be read: a cache is never
 * worth an error, and the next answer of the service writes it again.
 */
function readKept(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Replaces a kept file whole (a reader sees the old one or the new one). */
function writeKept(file: string, value: unknown): void {
  makeDirectory(path.dirname(file));
  replaceFile(file, `${JSON.stringify(value)}\n`, 0o600);
}

/** The cached list, or undefined when there is none or it cannot be read; `mkt exchanges --refresh` writes it again. */
export function readExchangeList(cacheDir: string, profile: string): ExchangeList | undefined {
  const list = readKept(exchangeListFile(cacheDir, profile)) as Partial<ExchangeList> | null | undefined;
  if (typeof list !== 'object' || list === null || !Array.isArray(list.exchanges)) return undefined;
  const exchanges = list.exchanges
    .filter((entry) => typeof entry?.id === 'string' && isExchangeId(entry.id))
    .map((entry) => ({
      id: entry.id,
      name: typeof entry.name === 'string' ? entry.name : null,
      records: Number.isSafeInteger(entry.records) ? entry.records : null,
      ...(Array.isArray(entry.feeTypes) ? { feeTypes: entry.feeTypes.filter((type: unknown) => typeof type === 'string') } : {}),
    }));
  return {
    source: list.source === 'mirror' ? 'mirror' : 'service',
    fetchedAt: typeof list.fetchedAt === 'string' ? list.fetchedAt : '',
    exchanges,
  };
}

/** Replaces the cached list whole. */
export function writeExchangeList(cacheDir: string, profile: string, list: ExchangeList): void {
  writeKept(exchangeListFile(cacheDir, profile), list);
}

/**
 * The identifiers of the profile's kept list, the truth about how the service spells them;
 * undefined without one, and against the sandbox, which is not the user's service.
 */
export function keptExchangeIds(cacheDir: string, settings: { profile: string; keySource: string }): string[] | undefined {
  if (settings.keySource === 'sandbox') return undefined;
  return readExchangeList(cacheDir, settings.profile)?.exchanges.map((exchange) => exchange.id);
}

/** The spelling of each filter's values that the service answered, kept per profile beside its exchange list. */
export interface KeptFilterValues {
  /** ISO 8601, when it was read. */
  fetchedAt: string;
  /** Null when the service does not answer "Get Available Filters": the interface document's table applies. */
  values: FilterValues | null;
}

/** `<cache>/filter-values/<profile>.json`. */
export function filterValuesFile(cacheDir: string, profile: string): string {
  return path.join(cacheDir, 'filter-values', `${profile}.json`);
}

/** The kept filter values, or undefined when there are none or they cannot be read, as readExchangeList. */
export function readFilterValues(cacheDir: string, profile: string): KeptFilterValues | undefined {
  const kept = readKept(filterValuesFile(cacheDir, profile)) as Partial<KeptFilterValues> | null | undefined;
  if (typeof kept !== 'object' || kept === null || typeof kept.fetchedAt !== 'string') return undefined;
  if (kept.values === null) return { fetchedAt: kept.fetchedAt, values: null };
  if (typeof kept.values !== 'object' || kept.values === undefined) return undefined;
  const values: FilterValues = {};
  for (const name of ENUM_FILTER_NAMES) {
    const listed: unknown = kept.values[name];
    if (Array.isArray(listed)) values[name] = listed.filter((value): value is string => typeof value === 'string' && isFilterValue(value));
  }
  return { fetchedAt: kept.fetchedAt, values };
}

/** Replaces the kept filter values whole. */
export function writeFilterValues(cacheDir: string, profile: string, kept: KeptFilterValues): void {
  writeKept(filterValuesFile(cacheDir, profile), kept);
}
