const encoder = new TextEncoder();

/** Decoded terms kept for reuse: a direct-mapped cache of this many slots (a power of two). */
const CACHE_SLOTS = 1 << 14;

/** The slots of the hash table of `count` terms: a power of two, at least twice the count. */
export function slotCountFor(count: number): number {
  let slots = 2;
  while (slots < count * 2) slots *= 2;
  return slots;
}

/** FNV-1a over `bytes[from, to)`. */
export function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

const isWellFormed = (term: string): boolean =>
  (term as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The parts of a packed dictionary, as a snapshot stores them. */
export interface PackedTermParts {
  /** The UTF-8 bytes of every well-formed term, in id order. */
  bytes: Uint8Array;
  /** Term `id`'s bytes are `[offsets[id - 1], offsets[id])`; ill-formed terms are empty there. */
  offsets: Uint32Array;
  /** Open-addressing hash table (linear probing) of the ids of the well-formed terms; 0 = empty. */
  slots: Uint32Array;
  /** Terms that UTF-8 cannot hold (lone surrogates), by id. */
  illFormed: Map<number, string>;
}

/**
 * Terms numbered from 1, packed: one UTF-8 buffer, an offsets array and a hash table of ids, all
 * typed arrays, so that a snapshot loads them as they are, with no per-term string or map entry.
 * A term is decoded when asked for (the last ones asked are cached); `id(term)` hashes its
 * UTF-8 bytes and compares them in place.
 *
 * @example
 * const packed = PackedTerms.fromTerms(['', 'http://example.org/a']);
 * packed.id('http://example.org/a'); // 1
 * packed.term(1); // 'http://example.org/a'
 */
export class PackedTerms {
  readonly bytes: Uint8Array;
  readonly offsets: Uint32Array;
  readonly slots: Uint32Array;
  readonly illFormed: Map<number, string>;
  readonly #illFormedIds = new Map<string, number>();
  readonly #buffer: Buffer;
  readonly #mask: number;
  #scratch = new Uint8Array(1 << 10);
  readonly #cacheIds = new Uint32Array(CACHE_SLOTS);
  readonly #cacheTerms: string[] = new Array(CACHE_SLOTS).fill('');

  /** Wraps parts already checked (see {@link PackedTerms.check}). */
  constructor(parts: PackedTermParts) {
    this.bytes = parts.bytes;
    this.offsets = parts.offsets;
    this.slots = parts.slots;
    this.illFormed = parts.illFormed;
    for (const [id, term] of parts.illFormed) this.#illFormedIds.set(term, id);
    this.#buffer = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    this.#mask = this.slots.length - 1;
  }

  /** Packs `terms[id]` for ids from 1 (slot 0 unused); the terms must be distinct. */
  static fromTerms(terms: ArrayLike<string>): PackedTerms {
    const count = terms.length - 1;
    const offsets = new Uint32Array(count + 1);
    const illFormed = new Map<number, string>();
    let total = 0;
    for (let id = 1; id <= count; id++) {
      const term = terms[id] as string;
      if (isWellFormed(term)) total += Buffer.byteLength(term, 'utf8');
      else illFormed.set(id, term);
      if (total > 0xffffffff) throw new Error('the terms take more than 4 GiB as UTF-8');
      offsets[id] = total;
    }
    const bytes = Buffer.allocUnsafe(total);
    for (let id = 1; id <= count; id++) {
      if (illFormed.has(id)) continue;
      bytes.write(terms[id] as string, offsets[id - 1] as number, 'utf8');
    }
    return new PackedTerms({
      bytes,
      offsets,
      slots: PackedTerms.hashTable(bytes, offsets, illFormed),
      illFormed,
    });
  }

  /** The hash table of the well-formed terms of `bytes` and `offsets`. */
  static hashTable(
    bytes: Uint8Array,
    offsets: Uint32Array,
    illFormed: Map<number, string>,
  ): Uint32Array {
    const count = offsets.length - 1;
    const slots = new Uint32Array(slotCountFor(count));
    const mask = slots.length - 1;
    for (let id = 1; id <= count; id++) {
      if (illFormed.has(id)) continue;
      let at = hashBytes(bytes, offsets[id - 1] as number, offsets[id] as number) & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      slots[at] = id;
    }
    return slots;
  }

  /**
   * Why parts read from outside cannot be used (offsets out of order or past the bytes, a hash
   * table of the wrong size or with unknown ids), or undefined when they can.
   */
  static check(parts: PackedTermParts): string | undefined {
    const { offsets, slots } = parts;
    const damagedOffsets = PackedTerms.checkOffsets(parts.bytes, offsets, parts.illFormed);
    if (damagedOffsets !== undefined) return damagedOffsets;
    const count = offsets.length - 1;
    if (slots.length !== slotCountFor(count)) return 'a damaged term hash table';
    // Ids within range, and at least one empty slot (a lookup's probe always ends).
    let used = 0;
    for (let i = 0; i < slots.length; i++) {
      const id = slots[i] as number;
      if (id > count) return 'a damaged term hash table';
      if (id !== 0) used++;
    }
    if (used >= slots.length) return 'a damaged term hash table';
    return undefined;
  }

  /** Why the offsets do not describe `bytes` (see {@link PackedTerms.check}). */
  static checkOffsets(
    bytes: Uint8Array,
    offsets: Uint32Array,
    illFormed: Map<number, string>,
  ): string | undefined {
    const count = offsets.length - 1;
    if (count < 0 || offsets[0] !== 0) return 'damaged term offsets';
    for (let id = 1; id <= count; id++)
      if ((offsets[id] as number) < (offsets[id - 1] as number)) return 'damaged term offsets';
    if (offsets[count] !== bytes.length) return 'damaged term offsets';
    for (const id of illFormed.keys()) if (offsets[id] !== offsets[id - 1]) return 'damaged terms';
    return undefined;
  }

  /** The number of terms. */
  get size(): number {
    return this.offsets.length - 1;
  }

  /** The term of an id from 1 to {@link size}. */
  term(id: number): string {
    const slot = id & (CACHE_SLOTS - 1);
    if (this.#cacheIds[slot] === id) return this.#cacheTerms[slot] as string;
    const from = this.offsets[id - 1] as number;
    const to = this.offsets[id] as number;
    const term =
      from === to ? (this.illFormed.get(id) ?? '') : this.#buffer.toString('utf8', from, to);
    this.#cacheIds[slot] = id;
    this.#cacheTerms[slot] = term;
    return term;
  }

  /** Whether the term of an id is a literal (`"lex"…`), without decoding it. */
  isLiteral(id: number): boolean {
    const from = this.offsets[id - 1] as number;
    if (from === this.offsets[id]) return (this.illFormed.get(id) ?? '').charCodeAt(0) === 34;
    return this.bytes[from] === 34;
  }

  /** The id of a term, 0 when absent. */
  id(term: string): number {
    if (!isWellFormed(term)) return this.#illFormedIds.get(term) ?? 0;
    if (term.length * 3 > this.#scratch.length) this.#scratch = new Uint8Array(term.length * 3);
    const scratch = this.#scratch;
    const length = encoder.encodeInto(term, scratch).written;
    const { bytes, offsets, slots } = this;
    const mask = this.#mask;
    let at = hashBytes(scratch, 0, length) & mask;
    for (;;) {
      const id = slots[at] as number;
      if (id === 0) return 0;
      const from = offsets[id - 1] as number;
      if ((offsets[id] as number) - from === length) {
        let i = 0;
        while (i < length && bytes[from + i] === scratch[i]) i++;
        if (i === length) return id;
      }
      at = (at + 1) & mask;
    }
  }
}
