import { MarketplaceSearchError } from './errors';

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
  const out = Float32Array.from(vector);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += (out[i] as number) ** 2;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

/**
 * An exact (brute-force) cosine index of one model's vectors, kept in one contiguous
 * Float32Array: 10,000 vectors of 512 dimensions are scanned in a few milliseconds, with no
 * approximation to tune. Vectors of one model only: a vector of another dimension is refused.
 *
 * @example
 * const index = new VectorIndex(512);
 * index.upsert('production\u0000urn:dmb:dp:a:b:0', 'production', vector);
 * index.search(queryVector, { environment: 'production', limit: 10 });
 */
export class VectorIndex {
  private data: Float32Array;
  private keys: string[] = [];
  private environments: string[] = [];
  private readonly rows = new Map<string, number>();

  constructor(readonly dimensions: number) {
    this.data = new Float32Array(dimensions * 64);
  }

  get size(): number {
    return this.keys.length;
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  /** Bytes held by the vectors. */
  get byteLength(): number {
    return this.data.byteLength;
  }

  upsert(key: string, environment: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions) {
      throw new MarketplaceSearchError(
        'model_mismatch',
        `a vector of ${vector.length} dimensions cannot join an index of ${this.dimensions}`,
      );
    }
    const unit = normalize(vector);
    let row = this.rows.get(key);
    if (row === undefined) {
      row = this.keys.length;
      if ((row + 1) * this.dimensions > this.data.length) {
        const grown = new Float32Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.keys.push(key);
      this.environments.push(environment);
      this.rows.set(key, row);
    }
    this.data.set(unit, row * this.dimensions);
  }

  remove(key: string): boolean {
    const row = this.rows.get(key);
    if (row === undefined) return false;
    const last = this.keys.length - 1;
    if (row !== last) {
      const lastKey = this.keys[last] as string;
      this.data.copyWithin(
        row * this.dimensions,
        last * this.dimensions,
        (last + 1) * this.dimensions,
      );
      this.keys[row] = lastKey;
      this.environments[row] = this.environments[last] as string;
      this.rows.set(lastKey, row);
    }
    this.keys.pop();
    this.environments.pop();
    this.rows.delete(key);
    return true;
  }

  /** The `limit` most similar vectors of the environment, most similar first. */
  search(query: ArrayLike<number>, options: { environment: string; limit: number }): VectorHit[] {
    if (query.length !== this.dimensions) {
      throw new MarketplaceSearchError(
        'model_mismatch',
        `a query of ${query.length} dimensions cannot search an index of ${this.dimensions}`,
      );
    }
    const q = normalize(query);
    const dims = this.dimensions;
    const data = this.data;
    const limit = Math.max(1, options.limit);
    // A small sorted buffer of the best hits: limit is small (tens), so insertion beats a heap.
    const best: VectorHit[] = [];
    for (let row = 0; row < this.keys.length; row++) {
      if (this.environments[row] !== options.environment) continue;
      let dot = 0;
      const base = row * dims;
      for (let i = 0; i < dims; i++) dot += (q[i] as number) * (data[base + i] as number);
      if (best.length === limit && dot <= (best[limit - 1] as VectorHit).similarity) continue;
      const hit = { key: this.keys[row] as string, similarity: dot };
      let at = best.length;
      while (at > 0 && (best[at - 1] as VectorHit).similarity < dot) at--;
      best.splice(at, 0, hit);
      if (best.length > limit) best.pop();
    }
    return best;
  }
}
