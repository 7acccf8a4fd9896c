const WORDS = 4;
/** Bits of a key's hash that pick its table. */
const TABLE_BITS = 8;
const TABLES = 1 << TABLE_BITS;
const INITIAL_SLOTS = 8;

/** Where an IdSet's tables come from: a Uint32Array of so many words. */
export type TableAllocator = (words: number) => Uint32Array;

const newTable: TableAllocator = (words) => new Uint32Array(words);

/**
 * The ids a walk has seen. A walk keeps every id to drop records a later page repeats, so this
 * set grows with the export, and as a Set of strings it cost a string object an id, each one
 * more for every major GC to trace. Ids in the service's form, a lower-case UUID, are kept as
 * 128 bits in open-addressed tables, in far less memory and with nothing to trace; any other
 * id, in a Set of its own. Two ids are the same exactly when their strings are.
 *
 * The UUIDs are spread over TABLES tables by their hash, each growing on its own: one table
 * doubling copies a small part of the set, where a single table's old and new copies, both as
 * large as the set, would be held at once while it grows.
 */
export class IdSet {
  private readonly tables: Uint32Array[] = [];
  /** UUIDs in each table. */
  private readonly counts = new Uint32Array(TABLES);
  private uuids = 0;
  /** An empty slot is all zeros, so the all-zero UUID, a valid id, is kept here. */
  private hasZero = false;
  private readonly others = new Set<string>();
  private readonly key = new Uint32Array(WORDS);

  /** `allocate`: where tables come from (a test watches them grow). */
  constructor(private readonly allocate: TableAllocator = newTable) {
    for (let table = 0; table < TABLES; table++) this.tables.push(allocate(INITIAL_SLOTS * WORDS));
  }

  get size(): number {
    return this.uuids + this.others.size;
  }

  /** Adds `id`; false when it was already there. */
  add(id: string): boolean {
    if (!this.readUuid(id)) {
      if (this.others.has(id)) return false;
      this.others.add(id);
      return true;
    }
    const key = this.key;
    if (isZero(key, 0)) {
      if (this.hasZero) return false;
      this.hasZero = true;
      this.uuids++;
      return true;
    }
    const hash = hashOf(key);
    const table = hash >>> (32 - TABLE_BITS);
    const slots = this.tables[table] as Uint32Array;
    const at = find(slots, key, hash);
    if (!isZero(slots, at)) return false;
    store(slots, at, key);
    this.uuids++;
    if (++(this.counts[table] as number) * 2 * WORDS > slots.length) this.tables[table] = this.grown(slots);
    return true;
  }

  has(id: string): boolean {
    if (!this.readUuid(id)) return this.others.has(id);
    const key = this.key;
    if (isZero(key, 0)) return this.hasZero;
    const hash = hashOf(key);
    const slots = this.tables[hash >>> (32 - TABLE_BITS)] as Uint32Array;
    return !isZero(slots, find(slots, key, hash));
  }

  /** Reads `id` into `this.key` when it is a lower-case UUID (8-4-4-4-12 hex digits); else false. */
  private readUuid(id: string): boolean {
    if (typeof id !== 'string' || id.length !== 36) return false;
    let word = 0;
    let digits = 0;
    for (let index = 0; index < 36; index++) {
      const code = id.charCodeAt(index);
      if (index === 8 || index === 13 || index === 18 || index === 23) {
        if (code !== 0x2d) return false; // '-'
        continue;
      }
      const value = code >= 0x30 && code <= 0x39 ? code - 0x30 : code >= 0x61 && code <= 0x66 ? code - 0x57 : -1;
      if (value < 0) return false;
      word = (word << 4) | value;
      if (++digits % 8 === 0) this.key[digits / 8 - 1] = word;
    }
    return true;
  }

  /** `slots`' keys in a table twice as large. */
  private grown(slots: Uint32Array): Uint32Array {
    const larger = this.allocate(slots.length * 2);
    const key = new Uint32Array(WORDS);
    for (let at = 0; at < slots.length; at += WORDS) {
      if (isZero(slots, at)) continue;
      key[0] = slots[at] as number;
      key[1] = slots[at + 1] as number;
      key[2] = slots[at + 2] as number;
      key[3] = slots[at + 3] as number;
      store(larger, find(larger, key, hashOf(key)), key);
    }
    return larger;
  }
}

/** A key's hash: its top TABLE_BITS pick the table, its low bits the slot. */
function hashOf(key: Uint32Array): number {
  const hash = Math.imul((key[0] as number) ^ Math.imul(key[1] as number, 0x85ebca6b) ^ Math.imul(key[2] as number, 0xc2b2ae35) ^ (key[3] as number), 0x9e3779b1);
  return (hash ^ (hash >>> 15)) >>> 0;
}

/** Whether the slot at word `at` of `words` is all zeros: empty, in a table. */
function isZero(words: Uint32Array, at: number): boolean {
  return ((words[at] as number) | (words[at + 1] as number) | (words[at + 2] as number) | (words[at + 3] as number)) === 0;
}

/** The word at which `slots` holds `key`, or the empty slot's where it belongs (linear probing). */
function find(slots: Uint32Array, key: Uint32Array, hash: number): number {
  const mask = slots.length / WORDS - 1;
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const at = slot * WORDS;
    if (isZero(slots, at)) return at;
    if (slots[at] === key[0] && slots[at + 1] === key[1] && slots[at + 2] === key[2] && slots[at + 3] === key[3]) return at;
  }
}

/** Puts `key` at word `at`, word by word: TypedArray set() and subarray() cost more than four stores. */
function store(slots: Uint32Array, at: number, key: Uint32Array): void {
  slots[at] = key[0] as number;
  slots[at + 1] = key[1] as number;
  slots[at + 2] = key[2] as number;
  slots[at + 3] = key[3] as number;
}
