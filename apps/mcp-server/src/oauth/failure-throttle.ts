import type { SharedLimits } from '@dcg/http-kit';

/**
 * Back-off after failed authentications (see {@link failureThrottle} in memory and
 * {@link sharedFailureThrottle} in PostgreSQL). Callers await every answer: the shared one asks
 * the database, and rejects when it does not answer (callers then fail closed).
 */
export interface FailureThrottle {
  /** Seconds until every key may try again (0: now). */
  wait(keys: readonly string[]): number | Promise<number>;
  /** Counts a failure of each key; answers the seconds the worst one is now locked for. */
  failed(keys: readonly string[]): number | Promise<number>;
  /** Forgets the failures of these keys (an account that signed in). */
  succeeded(keys: readonly string[]): void | Promise<void>;
}

/** Options of the back-off: free failures, then locks doubling from `baseSeconds` to `maxSeconds`. */
export interface FailureThrottleOptions {
  freeFailures?: number;
  baseSeconds?: number;
  maxSeconds?: number;
  maxKeys?: number;
}

/**
 * Back-off after failed authentications (passwords at the login page, client secrets at `/token`):
 * each key (an account, a client address, a client id) may fail `freeFailures` times; every
 * further failure locks it for twice as long as the last, from `baseSeconds` up to `maxSeconds`.
 * A key is forgotten after `maxSeconds` without a failure, and on success (see `succeeded`).
 * In memory, per instance: the embedded (SQLite) default, where there is one instance.
 *
 * @example
 * const throttle = failureThrottle();
 * const wait = throttle.wait(['account:ada', 'address:203.0.113.7']); // 0: go on
 * if (!ok) throttle.failed(['account:ada', 'address:203.0.113.7']);
 */
export function failureThrottle(options: FailureThrottleOptions = {}) {
  const free = options.freeFailures ?? 5;
  const base = options.baseSeconds ?? 1;
  const max = options.maxSeconds ?? 900;
  const maxKeys = options.maxKeys ?? 100_000;
  const entries = new Map<string, { failures: number; lockedUntil: number; last: number }>();
  const live = (key: string, now: number) => {
    const entry = entries.get(key);
    if (entry && now - entry.last > max * 1000) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    /** Seconds until every key may try again (0: now). */
    wait(keys: readonly string[], now = Date.now()): number {
      let until = now;
      for (const key of keys) until = Math.max(until, live(key, now)?.lockedUntil ?? now);
      return Math.ceil((until - now) / 1000);
    },
    /** Counts a failure of each key; answers the seconds the worst one is now locked for. */
    failed(keys: readonly string[], now = Date.now()): number {
      let wait = 0;
      for (const key of keys) {
        let entry = live(key, now);
        if (!entry) {
          // The oldest key goes first when full (a Map keeps insertion order).
          if (entries.size >= maxKeys) entries.delete(entries.keys().next().value as string);
          entry = { failures: 0, lockedUntil: now, last: now };
        }
        entries.delete(key);
        entries.set(key, entry);
        entry.failures += 1;
        entry.last = now;
        if (entry.failures > free) {
          const seconds = Math.min(max, base * 2 ** (entry.failures - free - 1));
          entry.lockedUntil = now + seconds * 1000;
          wait = Math.max(wait, seconds);
        }
      }
      return wait;
    },
    /** Forgets the failures of these keys (an account that signed in). */
    succeeded(keys: readonly string[]): void {
      for (const key of keys) entries.delete(key);
    },
  };
}

/**
 * The back-off of {@link failureThrottle}, kept in PostgreSQL so that every instance on the
 * database counts the same failures: an account or address gets `freeFailures` in all, not per
 * instance. Failures are counted in a window of `maxSeconds` from a key's first failure (the shared
 * store counts fixed windows); past the free ones each failure locks the key for twice as long as
 * the last, from `baseSeconds` up to `maxSeconds`. `name` keeps apart throttles of one database
 * (sign-ins and client secrets).
 *
 * @example
 * const throttle = sharedFailureThrottle(limits, 'login');
 * if ((await throttle.wait(['account:ada'])) > 0) answer429();
 */
export function sharedFailureThrottle(
  limits: SharedLimits,
  name: string,
  options: Omit<FailureThrottleOptions, 'maxKeys'> = {},
): FailureThrottle {
  const free = options.freeFailures ?? 5;
  const base = options.baseSeconds ?? 1;
  const max = options.maxSeconds ?? 900;
  // Counted past the budget (the count sets the lock), so never refused from memory.
  const failures = limits.counter(`${name}-failures`, {
    points: 1_000_000,
    windowSeconds: max,
    refuseInMemory: false,
  });
  const locks = limits.counter(`${name}-locks`, {
    points: 0,
    windowSeconds: max,
    refuseInMemory: false,
  });
  return {
    async wait(keys) {
      const counts = await Promise.all(keys.map((key) => locks.peek(key)));
      return Math.ceil(Math.max(0, ...counts.map((c) => (c.used > 0 ? c.secondsLeft : 0))));
    },
    async failed(keys) {
      let wait = 0;
      for (const key of keys) {
        const { used } = await failures.take(key);
        if (used > free) {
          const seconds = Math.min(max, base * 2 ** (used - free - 1));
          await locks.block(key, seconds);
          wait = Math.max(wait, Math.ceil(seconds));
        }
      }
      return wait;
    },
    async succeeded(keys) {
      await Promise.all(keys.flatMap((key) => [failures.forget(key), locks.forget(key)]));
    },
  };
}
