/**
 * Gives every searchable subject IRI a small integer id shared by all sources, so that scoring
 * can accumulate into typed arrays instead of string-keyed maps. Ids are reference-counted per
 * source index and reused once no index holds them.
 *
 * @example
 * const registry = new DocRegistry();
 * const id = registry.acquire('https://example.org/c1');
 * registry.iri(id); // 'https://example.org/c1'
 */
export class DocRegistry {
  readonly #ids = new Map<string, number>();
  readonly #iris: Array<string | undefined> = [];
  readonly #refs: number[] = [];
  readonly #free: number[] = [];

  /** Id of `iri`, counting one more holder. */
  acquire(iri: string): number {
    const known = this.#ids.get(iri);
    if (known !== undefined) {
      this.#refs[known] = (this.#refs[known] ?? 0) + 1;
      return known;
    }
    const id = this.#free.pop() ?? this.#iris.length;
    this.#ids.set(iri, id);
    this.#iris[id] = iri;
    this.#refs[id] = 1;
    return id;
  }

  /** Drops one holder of `id`; the id is freed when none is left. */
  release(id: number): void {
    const refs = (this.#refs[id] ?? 0) - 1;
    this.#refs[id] = refs;
    if (refs > 0) return;
    const iri = this.#iris[id];
    if (iri !== undefined) this.#ids.delete(iri);
    this.#iris[id] = undefined;
    this.#free.push(id);
  }

  /** IRI of a live id. */
  iri(id: number): string {
    const iri = this.#iris[id];
    if (iri === undefined) throw new Error(`document id ${id} is not live`);
    return iri;
  }

  /** One past the largest id ever handed out (size of scratch arrays). */
  get capacity(): number {
    return this.#iris.length;
  }
}
