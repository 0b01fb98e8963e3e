import { PackedTerms } from './packed-terms';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A V8 Map holds at most 2^24 entries: past this many terms a dictionary starts another map. */
const MAP_CAPACITY = 1 << 23;

/** Below this length V8 copies substrings; longer ones may be views that keep a parser's chunk alive. */
const SLICE_MIN_LENGTH = 13;

/**
 * Terms in the engine id form of `@dcg/sparql-subset` (an IRI as itself, `_:b` for a blank node,
 * `"lex"@lang` or `"lex"^^datatype` for a literal), each stored once and numbered from 1 in the
 * order they were first seen. The id → term list and the term → id maps share the same strings.
 * A dictionary loaded from a snapshot is {@link PackedTerms} instead (typed arrays, terms decoded
 * when asked for) and takes no new terms.
 *
 * @example
 * ```ts
 * const terms = new TermDictionary();
 * const id = terms.intern('http://example.org/a'); // 1
 * terms.term(id); // 'http://example.org/a'
 * terms.id('http://example.org/b'); // 0: unknown
 * ```
 */
export class TermDictionary {
  /** `terms[id]`; slot 0 is unused so that 0 can mean "no term". */
  readonly #terms: string[] = [''];
  readonly #maps: Map<string, number>[] = [new Map()];
  #bytes = 0;
  #scratch = new Uint8Array(1 << 12);
  #packed: PackedTerms | undefined;

  /** The dictionary of packed terms (as a snapshot holds them); it takes no new terms. */
  static fromPacked(packed: PackedTerms): TermDictionary {
    const dictionary = new TermDictionary();
    dictionary.#packed = packed;
    dictionary.#bytes = packed.bytes.length;
    return dictionary;
  }

  /** The terms packed into typed arrays (for a snapshot): built when this dictionary is not. */
  packed(): PackedTerms {
    return this.#packed ?? PackedTerms.fromTerms(this.#terms);
  }

  /** The number of distinct terms. */
  get size(): number {
    return this.#packed ? this.#packed.size : this.#terms.length - 1;
  }

  /** The summed UTF-16 length of all terms (what their characters weigh, roughly). */
  get characters(): number {
    return this.#bytes;
  }

  /** The id of a term, 0 when absent. */
  id(term: string): number {
    if (this.#packed) return this.#packed.id(term);
    const maps = this.#maps;
    for (let i = 0; i < maps.length; i++) {
      const id = (maps[i] as Map<string, number>).get(term);
      if (id !== undefined) return id;
    }
    return 0;
  }

  /** The term of an id given out by this dictionary. */
  term(id: number): string {
    if (this.#packed) return this.#packed.term(id);
    return this.#terms[id] as string;
  }

  /** Whether the term of an id is a literal (without decoding a packed term). */
  isLiteral(id: number): boolean {
    if (this.#packed) return this.#packed.isLiteral(id);
    return (this.#terms[id] as string).charCodeAt(0) === 34;
  }

  /** The id of a term, adding it when new. */
  intern(term: string): number {
    if (this.#packed) throw new Error('a packed term dictionary takes no new terms');
    const known = this.id(term);
    if (known !== 0) return known;
    const own = this.#ownCopy(term);
    const id = this.#terms.length;
    this.#terms.push(own);
    let map = this.#maps[this.#maps.length - 1] as Map<string, number>;
    if (map.size >= MAP_CAPACITY) {
      map = new Map();
      this.#maps.push(map);
    }
    map.set(own, id);
    this.#bytes += own.length;
    return id;
  }

  /** Every term, by id (slot 0 unused): for serialising. */
  *entries(): IterableIterator<[number, string]> {
    for (let id = 1; id <= this.size; id++) yield [id, this.term(id)];
  }

  /**
   * A flat copy of a term: a parser's substrings and concatenations are views over its input
   * chunks, and keeping one of them would keep the whole chunk alive.
   */
  #ownCopy(term: string): string {
    if (term.length < SLICE_MIN_LENGTH) return term;
    if (term.length * 3 > this.#scratch.length) this.#scratch = new Uint8Array(term.length * 3);
    const { written } = encoder.encodeInto(term, this.#scratch);
    const copy = decoder.decode(this.#scratch.subarray(0, written));
    // A lone surrogate does not survive UTF-8: such a term is kept as it came.
    return copy === term ? copy : term;
  }
}
