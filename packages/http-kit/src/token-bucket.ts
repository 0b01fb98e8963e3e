/** A refill rate and a capacity: `burst` tokens at most, `requestsPerSecond` added each second. */
export interface TokenRate {
  readonly requestsPerSecond: number;
  readonly burst: number;
}

/**
 * A token bucket: starts full, refills continuously, one token per request. The one rate limiter
 * of the workspace (the request limits of `rateLimit`, the registrations of mcp-server).
 *
 * @example
 * const bucket = new TokenBucket({ requestsPerSecond: 5, burst: 20 }, performance.now());
 * const wait = bucket.take(performance.now()); // 0: allowed; else seconds until a token is there
 */
export class TokenBucket {
  #tokens: number;
  #updated: number;

  constructor(
    private readonly rule: TokenRate,
    now: number,
  ) {
    this.#tokens = rule.burst;
    this.#updated = now;
  }

  #refill(now: number): void {
    const elapsed = Math.max(0, now - this.#updated) / 1000;
    this.#tokens = Math.min(this.rule.burst, this.#tokens + elapsed * this.rule.requestsPerSecond);
    this.#updated = now;
  }

  /** Whether a token is left (without taking it). */
  has(now: number): boolean {
    this.#refill(now);
    return this.#tokens >= 1;
  }

  /** Takes a token; answers 0 on success, else the seconds until one is there. */
  take(now: number): number {
    this.#refill(now);
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return (1 - this.#tokens) / this.rule.requestsPerSecond;
  }

  /** Seconds until a token is there. */
  wait(now: number): number {
    this.#refill(now);
    return this.#tokens >= 1 ? 0 : (1 - this.#tokens) / this.rule.requestsPerSecond;
  }
}

/**
 * One {@link TokenBucket} per key (a client address, a key name), at most `maxKeys`: the least
 * recently used is forgotten first, so a flood of new keys cannot grow memory without bound.
 *
 * @example
 * const perAddress = new KeyedTokenBuckets({ requestsPerSecond: 10 / 60, burst: 10 }, 10_000);
 * const wait = perAddress.take('203.0.113.7', performance.now()); // 0: allowed
 */
export class KeyedTokenBuckets {
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly rule: TokenRate,
    private readonly maxKeys: number,
  ) {}

  /** Takes a token of `key`'s bucket: 0 on success, else the seconds until one is there. */
  take(key: string, now: number): number {
    let bucket = this.#buckets.get(key);
    if (bucket) this.#buckets.delete(key);
    else {
      bucket = new TokenBucket(this.rule, now);
      if (this.#buckets.size >= this.maxKeys) {
        const oldest = this.#buckets.keys().next().value;
        if (oldest !== undefined) this.#buckets.delete(oldest);
      }
    }
    this.#buckets.set(key, bucket);
    return bucket.take(now);
  }
}
