/**
 * A fixed-window limit of dynamic client registrations per client address: `perMinute` in each
 * minute, then 429 with Retry-After until the window ends. Holds at most `maxAddresses` windows.
 *
 * @example
 * const limit = registrationRateLimit(10);
 * const wait = limit.take('203.0.113.7'); // undefined: allowed; a number: seconds to wait
 */
export function registrationRateLimit(perMinute: number, maxAddresses = 10_000) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(address: string, now = Date.now()): number | undefined {
      const minute = now - (now % 60_000);
      const window = windows.get(address);
      if (!window || window.start !== minute) {
        if (windows.size >= maxAddresses) windows.clear();
        windows.set(address, { start: minute, count: 1 });
        return undefined;
      }
      window.count += 1;
      if (window.count <= perMinute) return undefined;
      return Math.ceil((minute + 60_000 - now) / 1000);
    },
  };
}
