/** An exchange as `mkt exchanges` lists it: the identifier, and its name and records where the service gives them. */
export interface KnownExchange {
  id: string;
  name: string | null;
  records: number | null;
  /** Its fee types, where the service's exchange list gives them (2026). */
  feeTypes?: string[];
}

/**
 * What an identifier from the service must look like to be kept: a plain token. Completion
 * scripts hand the list to the shell, where `$(…)` or a space would be more than a word.
 */
export function isExchangeId(value: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(value);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first of `names` that `entry` holds as a string. */
function stringField(entry: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) if (typeof entry[name] === 'string') return entry[name] as string;
  return undefined;
}

/** The strings of a list the server sent, anything else in it left out. */
const strings = (values: readonly unknown[]): string[] => values.filter((value): value is string => typeof value === 'string');

/** A record count, where an entry gives one. */
function countField(entry: Record<string, unknown>, names: readonly string[] = ['total_records', 'records', 'count']): number | null {
  for (const name of names) {
    const value = entry[name];
    if (Number.isSafeInteger(value) && (value as number) >= 0) return value as number;
  }
  return null;
}

/**
 * The exchanges in an answer of "Get Available Filters": `data.exchange_names`, as identifiers
 * (shared/cli-contract.md) or, should the service send them so, as objects that also give a
 * name and a count. Undefined when the answer has another shape. An identifier that is not a
 * plain token (letters, digits, `.`, `_`, `-`) is dropped: it ends up in shell completion.
 */
export function exchangesOf(body: unknown): FoundExchanges | undefined {
  const entries = isObject(body) && isObject(body.data) ? body.data.exchange_names : undefined;
  if (!Array.isArray(entries)) return undefined;
  return collectExchanges(entries, (entry) => {
    const id = typeof entry === 'string' ? entry : isObject(entry) ? stringField(entry, ['exchange_name', 'id', 'exchange']) : undefined;
    if (id === undefined) return undefined;
    const name = isObject(entry) ? (stringField(entry, ['name', 'supplier_name']) ?? null) : null;
    return { id, name, records: isObject(entry) ? countField(entry) : null };
  });
}

/** The exchanges of an answer, and how many entries were left out. */
export interface FoundExchanges {
  exchanges: KnownExchange[];
  dropped: number;
}

/**
 * The exchanges `read` finds in the entries, each once. An entry without an identifier, or one
 * that is not a plain token (letters, digits, `.`, `_`, `-`), is dropped: it ends up in shell completion.
 */
function collectExchanges(entries: readonly unknown[], read: (entry: unknown) => KnownExchange | undefined): FoundExchanges {
  const exchanges = new Map<string, KnownExchange>();
  let dropped = 0;
  for (const entry of entries) {
    const exchange = read(entry);
    if (exchange === undefined || !isExchangeId(exchange.id)) dropped++;
    else exchanges.set(exchange.id, exchange);
  }
  return { exchanges: [...exchanges.values()], dropped };
}

/**
 * The exchanges in an answer of the 2026 reference's exchange list, `{"data": [{"name",
 * "display_name", "fee_types", "record_count"}]}`: the identifier, its display name, count and
 * fee types. Undefined when the answer has another shape.
 */
export function exchangesOfList(body: unknown): FoundExchanges | undefined {
  const entries = isObject(body) ? body.data : undefined;
  if (!Array.isArray(entries)) return undefined;
  return collectExchanges(entries, (entry) => {
    const id = isObject(entry) ? stringField(entry, ['name']) : undefined;
    if (!isObject(entry) || id === undefined) return undefined;
    return {
      id,
      name: stringField(entry, ['display_name']) ?? null,
      records: countField(entry, ['record_count']),
      ...(Array.isArray(entry.fee_types) ? { feeTypes: strings(entry.fee_types) } : {}),
    };
  });
}

/** The fee types in an answer of "Get Available Filters", `data.fee_types`; undefined when the answer has another shape. */
export function feeTypesOf(body: unknown): string[] | undefined {
  const values = isObject(body) && isObject(body.data) ? body.data.fee_types : undefined;
  return Array.isArray(values) ? strings(values) : undefined;
}

/**
 * The fee types of each exchange in an answer of the 2026 reference's exchange list, by
 * identifier; undefined when the answer has another shape. An entry without fee types is left
 * out: that exchange's are not known.
 */
export function feeTypesByExchange(body: unknown): Map<string, string[]> | undefined {
  const found = exchangesOfList(body);
  if (found === undefined) return undefined;
  return new Map(found.exchanges.flatMap(({ id, feeTypes }): [string, string[]][] => (feeTypes ? [[id, feeTypes]] : [])));
}
