import { hash } from 'node:crypto';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

/** The table the counters of every limit live in (one row per key), in the app's schema. */
export const SHARED_LIMITS_TABLE = 'dcg_rate_limits';

/** A budget: `points` per fixed window of `windowSeconds` (whole seconds, at least 1). */
export interface SharedLimitRule {
  points: number;
  windowSeconds: number;
  /**
   * Whether a key over its budget is refused from memory until its window ends (default true):
   * then `take` of a spent key says 0 `used`. Off for counters whose count matters past the budget.
   */
  refuseInMemory?: boolean;
  /**
   * Most points one round trip to the database may claim for this instance (default 1: every
   * `take` asks the database). A claim is spent here, one `take` at a time, until it or its
   * window ends, so a busy key costs the database one statement per claim, not per request. A
   * claim is at most an eighth of what the window had left at the last answer, so the last points
   * of a budget go one at a time: no instance spends points the budget does not hold. A claim
   * unspent when its window ends is lost (a budget may refuse up to that much early).
   */
  claimMax?: number;
}

/** What one key's counter says after a call. */
export interface SharedCount {
  /** Points used in the current window (0: none, or the window is over). */
  used: number;
  /** Seconds until the current window ends (0: no window). */
  secondsLeft: number;
}

/**
 * One limit's counters, shared by every instance on the database. Each method is one atomic
 * statement (`INSERT … ON CONFLICT DO UPDATE … RETURNING`), so concurrent calls on any number of
 * instances never grant more than the budget. Every method rejects when the database does not
 * answer within the store's `timeoutMs`: the caller decides whether that fails open or closed.
 */
export interface SharedCounter {
  /** Takes a point of `key`'s budget: `taken` false when it was spent already. */
  take(key: string): Promise<SharedCount & { taken: boolean }>;
  /** Reads `key`'s counter without changing it. */
  peek(key: string): Promise<SharedCount>;
  /** Marks `key` as over its budget for `seconds` (a lock-out), whatever it held. */
  block(key: string, seconds: number): Promise<void>;
  /** Forgets `key`. */
  forget(key: string): Promise<void>;
}

/**
 * Rate limit counters kept in PostgreSQL (rate-limiter-flexible's PostgreSQL store over the app's
 * own pool), so that several instances behind one balancer share one budget.
 *
 * @example
 * const limits = await openSharedLimits({ pool, schema: 'public' });
 * const logins = limits.counter('logins', { points: 5, windowSeconds: 60 });
 * if (!(await logins.take('203.0.113.7')).taken) answer429();
 */
export interface SharedLimits {
  readonly kind: 'postgres';
  /** The counters of one limit, apart from every other name's (one name: one budget). */
  counter(name: string, rule: SharedLimitRule): SharedCounter;
}

/** Options of {@link openSharedLimits}. */
export interface SharedLimitsOptions {
  /** The app's pool (the limits add no pool of their own). */
  pool: pg.Pool;
  /** The schema of the app's tables; the limits table is created there if missing. */
  schema: string;
  /** Longest wait for one answer of the database (default 1000 ms); longer rejects. */
  timeoutMs?: number;
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Creates the limits table if missing and answers the {@link SharedLimits} over `pool`.
 *
 * @example
 * const limits = await openSharedLimits({ pool, schema: 'dcg_mcp' });
 */
export async function openSharedLimits(options: SharedLimitsOptions): Promise<SharedLimits> {
  if (!identifier.test(options.schema)) {
    throw new Error(`schema "${options.schema}" must be a plain SQL identifier`);
  }
  const { pool } = options;
  // The apps name their schema unquoted, which PostgreSQL folds to lower case; the library quotes.
  const schema = options.schema.toLowerCase();
  const timeoutMs = options.timeoutMs ?? 1000;
  // The library's own table layout, created here once (and not by each limiter on its own).
  // UNLOGGED: a counter needs no WAL and no fsync per request (a crash or a fail-over to a standby
  // only starts every window afresh), which makes each decision several times cheaper.
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await pool.query(
      `CREATE UNLOGGED TABLE IF NOT EXISTS "${schema}"."${SHARED_LIMITS_TABLE}" (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      )`,
    );
  } catch (error) {
    // Two instances creating it at once: the loser sees a unique violation, and the table is there.
    if ((error as { code?: string }).code !== '23505') throw error;
  }
  let sweeping = false;
  return {
    kind: 'postgres',
    counter(name, rule) {
      const points = rule.points;
      const limiter = new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        schemaName: schema,
        tableName: SHARED_LIMITS_TABLE,
        tableCreated: true,
        // One limiter per process deletes the rows that expired an hour ago, every 5 minutes.
        clearExpiredByTimeout: !sweeping,
        keyPrefix: name,
        points,
        duration: Math.max(1, Math.ceil(rule.windowSeconds)),
        // A key over its budget is refused in memory until its window ends: a flood from one
        // client costs the database one statement per instance and window, not one per request.
        ...(rule.refuseInMemory === false ? {} : { inMemoryBlockOnConsumed: points + 1 }),
      });
      sweeping = true;
      const count = (res: RateLimiterRes | null): SharedCount =>
        res === null
          ? { used: 0, secondsLeft: 0 }
          : { used: res.consumedPoints, secondsLeft: Math.max(0, res.msBeforeNext) / 1000 };
      const claims = new Claims(rule.claimMax ?? 1);
      return {
        async take(key) {
          const stored = storedKey(key);
          // Takes that find nothing claimed while a claim is on its way wait for it, and spend it.
          for (;;) {
            const spent = claims.spend(stored);
            if (spent) return { ...spent, taken: true };
            const inFlight = claims.inFlight(stored);
            if (inFlight === undefined) break;
            const refusal = await inFlight;
            if (refusal) return { ...refusal, taken: false };
          }
          const points = claims.nextClaim(stored);
          // The claim is recorded before anyone waiting on it resumes: they find it to spend.
          const answer = within(timeoutMs, limiter.consume(stored, points)).then(
            (res) => {
              claims.claimed(stored, points, res);
              return { granted: res };
            },
            (error: unknown) => {
              claims.arrived(stored);
              if (error instanceof RateLimiterRes) return { refused: error };
              throw error;
            },
          );
          claims.waitFor(
            stored,
            answer.then(
              (a) => ('refused' in a ? count(a.refused) : undefined),
              () => undefined,
            ),
          );
          const outcome = await answer;
          return 'refused' in outcome
            ? { ...count(outcome.refused), taken: false }
            : { ...count(outcome.granted), taken: true };
        },
        async peek(key) {
          return count(await within(timeoutMs, limiter.get(storedKey(key))));
        },
        async block(key, seconds) {
          await within(timeoutMs, limiter.block(storedKey(key), Math.max(1, Math.ceil(seconds))));
        },
        async forget(key) {
          await within(timeoutMs, limiter.delete(storedKey(key)));
        },
      };
    },
  };
}

/** Most keys whose claims one counter keeps (the least recently used go first). */
const MAX_CLAIMED_KEYS = 10_000;

interface Claim {
  /** Points claimed and not spent yet. */
  left: number;
  /** When the claim's window ends (ms since the epoch). */
  endsAt: number;
  /** The window's points left in the database at the last answer. */
  remaining: number;
  /** Points the database counted in the window at the last answer. */
  used: number;
}

/** The points this instance claimed from the shared counters, per key (see `claimMax`). */
class Claims {
  readonly #byKey = new Map<string, Claim>();
  /** Claims on their way: resolve with the refusal, or undefined once the points may be spent. */
  readonly #inFlight = new Map<string, Promise<SharedCount | undefined>>();

  constructor(readonly max: number) {}

  /** Spends a claimed point of `key`, when one is left in a window not over. */
  spend(key: string): SharedCount | undefined {
    const claim = this.#byKey.get(key);
    if (claim === undefined || claim.left === 0) return undefined;
    const now = Date.now();
    if (claim.endsAt <= now) return undefined;
    claim.left--;
    return { used: claim.used - claim.left, secondsLeft: (claim.endsAt - now) / 1000 };
  }

  /** The claim of `key` on its way, if any (never with `claimMax` 1: each take asks alone). */
  inFlight(key: string): Promise<SharedCount | undefined> | undefined {
    return this.#inFlight.get(key);
  }

  waitFor(key: string, answer: Promise<SharedCount | undefined>): void {
    if (this.max > 1) this.#inFlight.set(key, answer);
  }

  /** The claim of `key` failed or was refused: the next one is a single point. */
  arrived(key: string): void {
    this.#inFlight.delete(key);
    this.#byKey.delete(key);
  }

  /** Points to ask for: an eighth of what the window had left, from 1 to `max`. */
  nextClaim(key: string): number {
    const claim = this.#byKey.get(key);
    if (this.max <= 1 || claim === undefined || claim.endsAt <= Date.now()) return 1;
    return Math.max(1, Math.min(this.max, Math.floor(claim.remaining / 8)));
  }

  /** The database granted `points`: one is spent by this `take`, the rest are kept. */
  claimed(key: string, points: number, res: RateLimiterRes): void {
    this.#inFlight.delete(key);
    if (this.max <= 1) return;
    const earlier = this.#byKey.get(key);
    const endsAt = Date.now() + Math.max(0, res.msBeforeNext);
    // Claims answered together (takes that found nothing claimed) add up while their window lasts.
    const kept = earlier !== undefined && earlier.endsAt > Date.now() ? earlier.left : 0;
    this.#byKey.delete(key);
    if (this.#byKey.size >= MAX_CLAIMED_KEYS) {
      const oldest = this.#byKey.keys().next().value;
      if (oldest !== undefined) this.#byKey.delete(oldest);
    }
    this.#byKey.set(key, {
      left: kept + points - 1,
      endsAt,
      remaining: res.remainingPoints,
      used: res.consumedPoints,
    });
  }
}

/** Keys fit the library's varchar(255) with any prefix: long ones are kept as their digest. */
function storedKey(key: string): string {
  return key.length <= 160 ? key : `sha256:${hash('sha256', key, 'hex')}`;
}

class SharedLimitTimeout extends Error {
  constructor(ms: number) {
    super(`the shared rate limit store did not answer within ${ms} ms`);
    this.name = 'SharedLimitTimeout';
  }
}

function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SharedLimitTimeout(ms)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
