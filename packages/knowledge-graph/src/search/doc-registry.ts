import type { TripleStore } from '../store/triple-store';

/**
 * One source index's hold on the registry: its store, and the document of each of its subject
 * terms (`docOf[termId]`, negative when the term is no document).
 */
export interface DocHolder {
  readonly store: TripleStore;
  readonly docOf: Int32Array;
}

/**
 * Gives every searchable subject a small integer id shared by all sources, so that scoring can
 * accumulate into typed arrays instead of string-keyed maps. A document is known by its subject's
 * id in a store's dictionary, never by a copy of its IRI: the same IRI in two sources is found
 * through the other stores' dictionaries (a hash look-up), and a document's IRI is read from the
 * dictionary of one store that holds it. Ids are reference-counted per holder and reused once no
 * holder has them.
 *
 * @example
 * const registry = new DocRegistry();
 * const holder = registry.hold(store, new Int32Array(store.terms.size + 1).fill(-1));
 * const id = registry.acquire(holder, store.termId('https://example.org/c1'));
 * registry.iri(id); // 'https://example.org/c1'
 */
export class DocRegistry {
  readonly #holders = new Set<DocHolder>();
  /** The holder and subject term whose dictionary names each document. */
  readonly #homes: Array<DocHolder | undefined> = [];
  readonly #homeTerms: number[] = [];
  readonly #refs: number[] = [];
  readonly #free: number[] = [];

  /** Registers a holder (its `docOf` filled by {@link acquire}) until {@link release}. */
  hold(store: TripleStore, docOf: Int32Array): DocHolder {
    const holder = { store, docOf };
    this.#holders.add(holder);
    return holder;
  }

  /** Id of the subject `term` of `holder`'s store (recorded in its `docOf`), one more holder. */
  acquire(holder: DocHolder, term: number): number {
    let doc = -1;
    if (this.#holders.size > 1) {
      const iri = holder.store.terms.term(term);
      for (const other of this.#holders) {
        if (other === holder) continue;
        const t = other.store.termId(iri);
        const known = t > 0 ? other.docOf[t]! : -1;
        if (known >= 0) {
          doc = known;
          break;
        }
      }
    }
    if (doc >= 0) {
      this.#refs[doc] = (this.#refs[doc] ?? 0) + 1;
    } else {
      doc = this.#free.pop() ?? this.#homes.length;
      this.#homes[doc] = holder;
      this.#homeTerms[doc] = term;
      this.#refs[doc] = 1;
    }
    holder.docOf[term] = doc;
    return doc;
  }

  /** Drops `holder` and its hold on its documents (`docs`, of subjects `subjects`). */
  release(holder: DocHolder, docs: Int32Array, subjects: Uint32Array): void {
    this.#holders.delete(holder);
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      const refs = (this.#refs[doc] ?? 0) - 1;
      this.#refs[doc] = refs;
      if (refs <= 0) {
        this.#homes[doc] = undefined;
        this.#free.push(doc);
      } else if (this.#homes[doc] === holder) this.#rehome(doc, holder, subjects[i]!);
    }
  }

  /** Names `doc` by another holder's dictionary, its home being released. */
  #rehome(doc: number, from: DocHolder, term: number): void {
    const iri = from.store.terms.term(term);
    for (const other of this.#holders) {
      const t = other.store.termId(iri);
      if (t > 0 && other.docOf[t] === doc) {
        this.#homes[doc] = other;
        this.#homeTerms[doc] = t;
        return;
      }
    }
  }

  /** IRI of a live id. */
  iri(id: number): string {
    const home = this.#homes[id];
    if (home === undefined) throw new Error(`document id ${id} is not live`);
    return home.store.terms.term(this.#homeTerms[id]!);
  }

  /** One past the largest id ever handed out (size of scratch arrays). */
  get capacity(): number {
    return this.#homes.length;
  }
}
