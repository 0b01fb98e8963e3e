import { ROW_SCORES_WASM } from './row-scores-wasm';

let compiled: WebAssembly.Module | null | undefined;

/** The module, compiled once; null where WebAssembly or its SIMD instructions are missing. */
function rowScoresModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = Uint8Array.from(atob(ROW_SCORES_WASM), (c) => c.charCodeAt(0));
    compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

const PAGE = 65_536;

type ScoresFn = (q: number, data: number, rows: number, dims: number, out: number) => void;
type ScoresOfFn = (
  q: number,
  data: number,
  ids: number,
  count: number,
  dims: number,
  out: number,
) => void;

/**
 * Dot products of one query with rows of `dims` floats, four lanes at a time in WebAssembly SIMD
 * (`wasm/row-scores.wat`): a vector search (top 50 of 10,000 vectors) takes 0.75–1.15 ms with
 * it, 2.8–3.8 ms with the JavaScript loops it replaces (`pnpm bench`: `bench/search-bench.ts`).
 * It scores every row ({@link score}) or the rows a shortlist names ({@link scoreRows}). The
 * query, the scores, the shortlist and the rows live in the module's memory, laid out in that
 * order; {@link grow} keeps the rows. Views ({@link rows}, {@link query}, {@link ids}) are stale
 * after a grow: read them again.
 *
 * @example
 * const kernel = RowScores.create(96, 64); // null without WebAssembly SIMD
 * kernel?.rows.set(vector, 0); kernel?.query.set(q); const [score] = kernel?.score(1) ?? [];
 */
export class RowScores {
  private capacity: number;
  private readonly scoresFn: ScoresFn;
  private readonly scoresOfFn: ScoresOfFn;

  private constructor(
    private readonly dims: number,
    capacity: number,
    private readonly memory: WebAssembly.Memory,
    instance: WebAssembly.Instance,
  ) {
    this.capacity = capacity;
    this.scoresFn = instance.exports.scores as ScoresFn;
    this.scoresOfFn = instance.exports.scores_of as ScoresOfFn;
  }

  /**
   * A kernel for rows of `dims` floats (a multiple of 8), room for `capacity` rows; null where
   * WebAssembly SIMD is unavailable (the caller keeps its JavaScript loop).
   */
  static create(dims: number, capacity: number): RowScores | null {
    if (dims % 8 !== 0) return null;
    const module = rowScoresModule();
    if (!module) return null;
    const memory = new WebAssembly.Memory({ initial: pagesFor(dims, capacity) });
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    return new RowScores(dims, capacity, memory, instance);
  }

  /** The rows: `capacity × dims` floats. */
  get rows(): Float32Array {
    return new Float32Array(
      this.memory.buffer,
      this.rowsOffset(this.capacity),
      this.capacity * this.dims,
    );
  }

  /** Where the query goes before scoring. */
  get query(): Float32Array {
    return new Float32Array(this.memory.buffer, 0, this.dims);
  }

  /** Where the row numbers go before {@link scoreRows} (room for `capacity`). */
  get ids(): Int32Array {
    return new Int32Array(this.memory.buffer, this.idsOffset(this.capacity), this.capacity);
  }

  /** Bytes of the module's memory. */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** Room for `capacity` rows (more than now), the rows kept in order. */
  grow(capacity: number): void {
    const need = pagesFor(this.dims, capacity) - this.memory.buffer.byteLength / PAGE;
    if (need > 0) this.memory.grow(need);
    const from = this.rowsOffset(this.capacity);
    const bytes = new Uint8Array(this.memory.buffer);
    bytes.copyWithin(this.rowsOffset(capacity), from, from + this.capacity * this.dims * 4);
    this.capacity = capacity;
  }

  /** The dot products of the query with the first `count` rows (a view, valid until the next call). */
  score(count: number): Float32Array {
    const out = this.dims * 4;
    this.scoresFn(0, this.rowsOffset(this.capacity), count, this.dims, out);
    return new Float32Array(this.memory.buffer, out, count);
  }

  /** The dot products of the query with the rows `ids[0..count)` name, in that order (a view). */
  scoreRows(count: number): Float32Array {
    const out = this.dims * 4;
    const { capacity, dims } = this;
    this.scoresOfFn(0, this.rowsOffset(capacity), this.idsOffset(capacity), count, dims, out);
    return new Float32Array(this.memory.buffer, out, count);
  }

  private idsOffset(capacity: number): number {
    return this.dims * 4 + capacity * 4;
  }

  private rowsOffset(capacity: number): number {
    return this.dims * 4 + capacity * 8;
  }
}

function pagesFor(dims: number, capacity: number): number {
  return Math.ceil((dims * 4 + capacity * 8 + capacity * dims * 4) / PAGE) + 1;
}
