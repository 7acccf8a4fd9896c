const WORDS = 4;
const INITIAL_SLOTS = 1024;

/**
 * The ids a walk has seen. A walk keeps every id to drop records a later page repeats, so this
 * set grows with the export, and as a Set of strings it cost a string object an id, each one
 * more for every major GC to trace. Ids in the service's form, a lower-case UUID, are kept as
 * 128 bits in one open-addressed table, in far less memory and with nothing to trace; any
 * other id, in a Set of its own. Two ids are the same exactly when their strings are.
 */
export class IdSet {
  private slots = new Uint32Array(INITIAL_SLOTS * WORDS);
  /** Slot i is taken when used[i] is 1: an all-zero UUID is a valid id. */
  private used = new Uint8Array(INITIAL_SLOTS);
  private uuids = 0;
  private readonly others = new Set<string>();
  private readonly key = new Uint32Array(WORDS);

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
    const slot = this.find(this.key);
    if (this.used[slot] === 1) return false;
    this.store(slot, this.key);
    if (++this.uuids * 2 > this.used.length) this.grow();
    return true;
  }

  has(id: string): boolean {
    if (!this.readUuid(id)) return this.others.has(id);
    return this.used[this.find(this.key)] === 1;
  }

  /** Puts `key` in `slot`, word by word: TypedArray set() and subarray() cost more than four stores. */
  private store(slot: number, key: Uint32Array): void {
    const at = slot * WORDS;
    this.slots[at] = key[0] as number;
    this.slots[at + 1] = key[1] as number;
    this.slots[at + 2] = key[2] as number;
    this.slots[at + 3] = key[3] as number;
    this.used[slot] = 1;
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

  /** The slot holding `key`, or the empty slot where it belongs (linear probing). */
  private find(key: Uint32Array): number {
    const mask = this.used.length - 1;
    let hash = Math.imul((key[0] as number) ^ Math.imul(key[1] as number, 0x85ebca6b) ^ Math.imul(key[2] as number, 0xc2b2ae35) ^ (key[3] as number), 0x9e3779b1);
    hash ^= hash >>> 15;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      if (this.used[slot] === 0) return slot;
      const at = slot * WORDS;
      const slots = this.slots;
      if (slots[at] === key[0] && slots[at + 1] === key[1] && slots[at + 2] === key[2] && slots[at + 3] === key[3]) return slot;
    }
  }

  private grow(): void {
    const { slots, used } = this;
    this.slots = new Uint32Array(slots.length * 2);
    this.used = new Uint8Array(used.length * 2);
    const key = this.key;
    for (let slot = 0; slot < used.length; slot++) {
      if (used[slot] === 0) continue;
      const at = slot * WORDS;
      key[0] = slots[at] as number;
      key[1] = slots[at + 1] as number;
      key[2] = slots[at + 2] as number;
      key[3] = slots[at + 3] as number;
      this.store(this.find(key), key);
    }
  }
}
