import { KeyedTokenBuckets } from '@dcg/http-kit';

/**
 * The limit of dynamic client registrations per client address: `perMinute` at once, refilled
 * at `perMinute` a minute (http-kit's token buckets, the workspace's one rate limiter), then 429
 * with Retry-After. Holds at most `maxAddresses` addresses (the least recently seen go first).
 *
 * @example
 * const limit = registrationRateLimit(10);
 * const wait = limit.take('203.0.113.7'); // undefined: allowed; a number: seconds to wait
 */
export function registrationRateLimit(perMinute: number, maxAddresses = 10_000) {
  const buckets = new KeyedTokenBuckets(
    { requestsPerSecond: perMinute / 60, burst: perMinute },
    maxAddresses,
  );
  return {
    take(address: string, now = performance.now()): number | undefined {
      const wait = buckets.take(address, now);
      // Whole seconds, rounded at the millisecond first: 10.000000002 s asks for 10, not 11.
      return wait === 0 ? undefined : Math.max(1, Math.ceil(Math.round(wait * 1000) / 1000));
    },
  };
}
