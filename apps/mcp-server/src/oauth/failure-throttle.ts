/**
 * Back-off after failed authentications (passwords at the login page, client secrets at `/token`):
 * each key (an account, a client address, a client id) may fail `freeFailures` times; every
 * further failure locks it for twice as long as the last, from `baseSeconds` up to `maxSeconds`.
 * A key is forgotten after `maxSeconds` without a failure, and on success (see `succeeded`).
 * In memory, per instance: instances behind one balancer each count their own share.
 *
 * @example
 * const throttle = failureThrottle();
 * const wait = throttle.wait(['account:ada', 'address:203.0.113.7']); // 0: go on
 * if (!ok) throttle.failed(['account:ada', 'address:203.0.113.7']);
 */
export function failureThrottle(
  options: {
    freeFailures?: number;
    baseSeconds?: number;
    maxSeconds?: number;
    maxKeys?: number;
  } = {},
) {
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

/** The throttle {@link failureThrottle} makes. */
export type FailureThrottle = ReturnType<typeof failureThrottle>;
