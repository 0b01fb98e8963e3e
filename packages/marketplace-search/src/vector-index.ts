import { EnvironmentIds, inEnvironment, NO_ENVIRONMENT } from './environment-ids';
import { MarketplaceSearchError } from './errors';
import { RowScores } from './row-scores';
import { TopK } from './top-k';

/**
 * A vector hit: cosine similarity to the query.
 *
 * @example
 * const [best] = index.search(queryVector, { environment: 'production', limit: 5 });
 */
export interface VectorHit {
  key: string;
  similarity: number;
}

/**
 * Normalises a vector to unit length (a zero vector stays zero).
 *
 * @example
 * normalize(new Float32Array([3, 4])); // Float32Array [0.6, 0.8]
 */
export function normalize(vector: ArrayLike<number>): Float32Array {
  return normalizeInto(vector, new Float32Array(vector.length));
}

/**
 * Options of {@link VectorIndex.search}.
 *
 * @example
 * const options: VectorSearchOptions = { environment: 'production', limit: 10, minSimilarity: 0.2 };
 */
export interface VectorSearchOptions {
  /** Only vectors of this environment; every environment when undefined. */
  environment?: string | undefined;
  limit: number;
  /** Hits below this cosine similarity are left out (default: none are). */
  minSimilarity?: number | undefined;
}

/**
 * A brute-force cosine index of one model's vectors, kept in one contiguous Float32Array (rows of
 * unit vectors). Vectors of more than 192 dimensions also get a 96-dimension random projection
 * (Johnson–Lindenstrauss): a search scans the projections, then scores the best
 * `max(200, 8 × limit)` candidates exactly, about 5× less arithmetic than an exact scan for 512
 * dimensions (20× for 3072) with the same top hits in practice (see `vector-index.test.ts`). The
 * vectors and their projections live in WebAssembly memory and are scored with SIMD
 * (`row-scores.ts`; plain JavaScript loops where WebAssembly SIMD is missing). The best rows are
 * kept in a bounded heap over typed arrays: a search allocates per hit returned, not per row
 * scanned. Vectors of one model only: a vector of another dimension is refused.
 *
 * @example
 * const index = new VectorIndex(512);
 * index.upsert('production\u0000urn:dmb:dp:a:b:0', 'production', vector);
 * index.search(queryVector, { environment: 'production', limit: 10 });
 */
export class VectorIndex {
  private data: Float32Array;
  private coarse: Float32Array;
  private keys: string[] = [];
  /** Environment of each row, as a small integer (see `environmentIds`). */
  private rowEnvironment: Int32Array;
  private readonly environmentIds = new EnvironmentIds();
  private readonly environmentCounts: number[] = [];
  private readonly rows = new Map<string, number>();
  private readonly projection: Float32Array | null;
  /** Hold and score the projections and the vectors in WebAssembly SIMD (null: JavaScript). */
  private readonly coarseKernel: RowScores | null;
  private readonly dataKernel: RowScores | null;
  private readonly projected: number;
  /** Candidates of the projected scan scored exactly, at least (8 × limit when more). */
  private readonly rescored: number;
  private readonly top = new TopK(256);
  private readonly scratchQuery: Float32Array;
  private readonly scratchCoarse: Float32Array;

  constructor(
    readonly dimensions: number,
    options: {
      exact?: boolean;
      projectedDimensions?: number;
      rescored?: number;
      /** false: JavaScript loops even where WebAssembly SIMD is available (to compare them). */
      simd?: boolean;
    } = {},
  ) {
    this.rowEnvironment = new Int32Array(64);
    this.projected =
      options.exact || dimensions <= 192
        ? 0
        : (options.projectedDimensions ?? PROJECTED_DIMENSIONS);
    this.rescored = options.rescored ?? RESCORED;
    this.projection = this.projected > 0 ? gaussianMatrix(this.projected, dimensions) : null;
    const simd = (options.simd ?? true) && this.projected > 0;
    this.coarseKernel = simd ? RowScores.create(this.projected, 64) : null;
    this.dataKernel = this.coarseKernel ? RowScores.create(dimensions, 64) : null;
    this.coarse = this.coarseKernel?.rows ?? new Float32Array(this.projected * 64);
    this.data = this.dataKernel?.rows ?? new Float32Array(dimensions * 64);
    this.scratchQuery = new Float32Array(dimensions);
    this.scratchCoarse = new Float32Array(this.projected);
  }

  get size(): number {
    return this.keys.length;
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  /** Vectors of the environment, or of all when `environment` is undefined. */
  count(environment?: string): number {
    if (environment === undefined) return this.keys.length;
    const env = this.environmentIds.find(environment);
    return env === undefined ? 0 : (this.environmentCounts[env] ?? 0);
  }

  /** Bytes held by the vectors. */
  get byteLength(): number {
    const coarse = this.coarseKernel?.byteLength ?? this.coarse.byteLength;
    const data = this.dataKernel?.byteLength ?? this.data.byteLength;
    return data + coarse + this.rowEnvironment.byteLength;
  }

  upsert(key: string, environment: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions) {
      throw new MarketplaceSearchError(
        'model_mismatch',
        `a vector of ${vector.length} dimensions cannot join an index of ${this.dimensions}`,
      );
    }
    let row = this.rows.get(key);
    if (row === undefined) {
      row = this.keys.length;
      if (row >= this.rowEnvironment.length) this.grow();
      this.keys.push(key);
      this.rows.set(key, row);
    } else {
      this.countRow(row, -1);
    }
    this.rowEnvironment[row] = this.environmentIds.idOf(environment);
    this.countRow(row, 1);
    const unit = this.data.subarray(row * this.dimensions, (row + 1) * this.dimensions);
    normalizeInto(vector, unit);
    if (this.projection)
      this.project(unit, this.coarse.subarray(row * this.projected, (row + 1) * this.projected));
  }

  remove(key: string): boolean {
    const row = this.rows.get(key);
    if (row === undefined) return false;
    this.countRow(row, -1);
    const last = this.keys.length - 1;
    if (row !== last) {
      // The last row fills the hole: its vector, projection and environment move together.
      const lastKey = this.keys[last] as string;
      const d = this.dimensions;
      this.data.copyWithin(row * d, last * d, (last + 1) * d);
      const p = this.projected;
      if (p > 0) this.coarse.copyWithin(row * p, last * p, (last + 1) * p);
      this.rowEnvironment[row] = this.rowEnvironment[last] as number;
      this.keys[row] = lastKey;
      this.rows.set(lastKey, row);
    }
    this.keys.pop();
    this.rows.delete(key);
    return true;
  }

  /**
   * The `limit` most similar vectors of the environment (of every environment when none is
   * given), most similar first.
   */
  search(query: ArrayLike<number>, options: VectorSearchOptions): VectorHit[] {
    if (query.length !== this.dimensions) {
      throw new MarketplaceSearchError(
        'model_mismatch',
        `a query of ${query.length} dimensions cannot search an index of ${this.dimensions}`,
      );
    }
    const env = this.environmentIds.filterOf(options.environment);
    if (env === NO_ENVIRONMENT) return [];
    const q = normalizeInto(query, this.scratchQuery);
    const limit = Math.max(1, options.limit);
    const floor = options.minSimilarity ?? Number.NEGATIVE_INFINITY;
    const d = this.dimensions;
    const top = this.top;
    if (!this.projection) {
      this.scan(this.data, d, q, env, limit);
    } else {
      const p = this.projected;
      const shortlist = Math.max(this.rescored, limit * 8);
      if (this.coarseKernel) {
        this.project(q, this.coarseKernel.query);
        this.offerScores(this.coarseKernel.score(this.keys.length), env, shortlist);
      } else {
        this.scan(this.coarse, p, this.project(q, this.scratchCoarse), env, shortlist);
      }
      const candidates = top.drain();
      top.reset(limit);
      if (this.dataKernel) {
        this.dataKernel.query.set(q);
        this.dataKernel.ids.set(candidates.ids);
        const scores = this.dataKernel.scoreRows(candidates.ids.length);
        for (let i = 0; i < scores.length; i++)
          top.offer(candidates.ids[i] as number, scores[i] as number);
      } else {
        for (const row of candidates.ids) top.offer(row, dot(q, this.data, row * d, d));
      }
    }
    const best = top.drain();
    const hits: VectorHit[] = [];
    for (let i = 0; i < best.ids.length; i++) {
      const similarity = best.scores[i] as number;
      if (similarity < floor) break;
      hits.push({ key: this.keys[best.ids[i] as number] as string, similarity });
    }
    return hits;
  }

  private countRow(row: number, by: number): void {
    const env = this.rowEnvironment[row] as number;
    this.environmentCounts[env] = (this.environmentCounts[env] ?? 0) + by;
  }

  private grow(): void {
    const capacity = this.rowEnvironment.length * 2;
    this.data = grownRows(this.data, this.dataKernel, capacity, this.dimensions);
    this.coarse = grownRows(this.coarse, this.coarseKernel, capacity, this.projected);
    const environments = new Int32Array(capacity);
    environments.set(this.rowEnvironment);
    this.rowEnvironment = environments;
  }

  private project(unit: Float32Array, out: Float32Array): Float32Array {
    const m = this.projection as Float32Array;
    for (let j = 0; j < this.projected; j++)
      out[j] = dot(unit, m, j * this.dimensions, this.dimensions);
    return out;
  }

  /** Leaves in `this.top` the `limit` best rows of the environment by their `scores`. */
  private offerScores(scores: Float32Array, env: number, limit: number): void {
    const top = this.top;
    top.reset(limit);
    const environments = this.rowEnvironment;
    let floor = Number.NEGATIVE_INFINITY;
    for (let row = 0; row < scores.length; row++) {
      const score = scores[row] as number;
      if (score <= floor || !inEnvironment(environments[row] as number, env)) continue;
      top.offer(row, score);
      floor = top.floor;
    }
  }

  /** Leaves in `this.top` the `limit` best rows of the environment by dot product with `q`. */
  private scan(
    data: Float32Array,
    dims: number,
    q: Float32Array,
    env: number,
    limit: number,
  ): void {
    const top = this.top;
    top.reset(limit);
    const environments = this.rowEnvironment;
    const rows = this.keys.length;
    // Most rows score below the worst kept one: compared here, they never reach the heap.
    let floor = Number.NEGATIVE_INFINITY;
    for (let row = 0; row < rows; row++) {
      if (!inEnvironment(environments[row] as number, env)) continue;
      const score = dot(q, data, row * dims, dims);
      if (score <= floor) continue;
      top.offer(row, score);
      floor = top.floor;
    }
  }
}

/** Room for `capacity` rows of `dims` floats, the rows kept: in the kernel's memory, or copied. */
function grownRows(
  rows: Float32Array,
  kernel: RowScores | null,
  capacity: number,
  dims: number,
): Float32Array {
  if (kernel) {
    kernel.grow(capacity);
    return kernel.rows;
  }
  const grown = new Float32Array(capacity * dims);
  grown.set(rows);
  return grown;
}

/** Writes the unit vector of `vector` into `out` (a zero vector stays zero). */
function normalizeInto(vector: ArrayLike<number>, out: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < out.length; i++) {
    const v = vector[i] as number;
    out[i] = v;
    norm += v * v;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

const PROJECTED_DIMENSIONS = 96;
const RESCORED = 200;

/** Dot product of `q` with `dims` values of `data` from `base`, unrolled by four. */
function dot(q: Float32Array, data: Float32Array, base: number, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dims; i += 4) {
    s0 += (q[i] as number) * (data[base + i] as number);
    s1 += (q[i + 1] as number) * (data[base + i + 1] as number);
    s2 += (q[i + 2] as number) * (data[base + i + 2] as number);
    s3 += (q[i + 3] as number) * (data[base + i + 3] as number);
  }
  for (; i < dims; i++) s0 += (q[i] as number) * (data[base + i] as number);
  return s0 + s1 + s2 + s3;
}

/** A fixed (seeded) Gaussian random matrix, rows × cols, scaled by 1/√rows. */
function gaussianMatrix(rows: number, cols: number): Float32Array {
  let seed = 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float32Array(rows * cols);
  const scale = 1 / Math.sqrt(rows);
  for (let i = 0; i < out.length; i += 2) {
    const u = Math.max(random(), 1e-12);
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    out[i] = r * Math.cos(2 * Math.PI * v) * scale;
    if (i + 1 < out.length) out[i + 1] = r * Math.sin(2 * Math.PI * v) * scale;
  }
  return out;
}
