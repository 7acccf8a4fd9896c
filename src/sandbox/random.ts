/**
 * Deterministic pseudo-random numbers. Every value the sandbox serves is drawn from a generator
 * seeded by (seed, what, index), so the same seed gives the same bytes on every run and any
 * single record can be rebuilt on its own without generating the ones before it.
 */

/** Mixes integers into one 32-bit hash (murmur3's finaliser over each part). */
export function hash32(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    // Parts beyond 32 bits (timestamps) contribute their high word too.
    const high = Math.floor(part / 0x1_0000_0000);
    if (high !== 0) h = Math.imul(h ^ (high >>> 0), 0x27d4eb2f);
  }
  return h >>> 0;
}

/** FNV-1a over a string's UTF-16 code units. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** Character codes of the hex digits, so a UUID is built in one String.fromCharCode call. */
const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH = 0x2d;
/** Scratch space for uuid(), which never yields: one array, not one per call. */
const UUID_CODES: number[] = Array<number>(36).fill(0);

/** mulberry32: small, fast, and good enough for test data. */
export class Random {
  private state: number;

  constructor(...seedParts: readonly number[]) {
    this.state = hash32(...seedParts);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('cannot pick from an empty list');
    return item;
  }

  /** A version 4 UUID in its canonical lower-case form. */
  uuid(): string {
    let at = 0;
    for (let w = 0; w < 4; w++) {
      const word = this.word();
      for (let k = 0; k < 8; k++) {
        const n = w * 8 + k;
        if (n === 8 || n === 12 || n === 16 || n === 20) UUID_CODES[at++] = DASH;
        const nibble = (word >>> (28 - k * 4)) & 15;
        // Nibble 12 is the version (4), nibble 16 the variant (8 to b).
        UUID_CODES[at++] = HEX_CODES[n === 12 ? 4 : n === 16 ? 8 | (nibble & 3) : nibble]!;
      }
    }
    return String.fromCharCode(...UUID_CODES);
  }

  /**
   * A version 7 UUID (RFC 9562): `ms` as its first 48 bits, `run` (12 bits) as the next, and the
   * rest from this stream. UUIDs of one `ms` and `run` sort as their streams' parts do.
   */
  uuidV7(ms: number, run: number): string {
    const time = ms.toString(16).padStart(12, '0');
    return `${time.slice(0, 8)}-${time.slice(8)}-7${(run & 0xfff).toString(16).padStart(3, '0')}${this.uuid().slice(18)}`;
  }

  private word(): number {
    return (this.next() * 0x1_0000_0000) >>> 0;
  }
}
