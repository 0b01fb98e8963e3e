import type { QueryDataset } from './query-dataset';

/** Slots of the cache: enough for the terms of the rows a join has open at once, many times over. */
const SLOTS = 1 << 12;
const MASK = SLOTS - 1;
/** How many characters, from the end, the slot hash reads (terms tend to differ at their end). */
const HASHED = 16;

function slotOf(term: string): number {
  let h = term.length * 0x9e3779b1;
  const stop = Math.max(0, term.length - HASHED);
  for (let i = term.length - 1; i >= stop; i--) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) & MASK;
}

/**
 * The ids of a dataset's terms by way of a small direct-mapped cache in front of
 * {@link QueryDataset.termId}. Rows carry terms as strings; a join hands the term a cursor just
 * decoded straight back as the key of its next lookup. In a dictionary of millions of terms each
 * such lookup is a few cache misses (microseconds); here it is a short hash and one comparison,
 * usually of the very same string.
 */
export class TermIdCache {
  private readonly terms: (string | undefined)[] = new Array(SLOTS);
  private readonly ids = new Int32Array(SLOTS);

  constructor(private readonly dataset: QueryDataset) {}

  /** The id of a term (0 when the dataset has none). */
  id(term: string): number {
    const slot = slotOf(term);
    if (this.terms[slot] === term) return this.ids[slot] as number;
    const id = this.dataset.termId(term);
    this.terms[slot] = term;
    this.ids[slot] = id;
    return id;
  }

  /** The term of an id, remembered for a lookup of it that may follow. */
  term(id: number): string {
    const term = this.dataset.term(id);
    const slot = slotOf(term);
    this.terms[slot] = term;
    this.ids[slot] = id;
    return term;
  }
}
