/**
 * Milliseconds an answer asks to wait before the next attempt: Azure's `retry-after-ms`, else
 * `Retry-After` in seconds or as an HTTP date (RFC 9110 §10.2.3). `undefined` when neither is
 * present and valid; a date in the past waits 0.
 *
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '2' })); // 2000
 * retryAfterMs(new Headers({ 'retry-after-ms': '150' })); // 150
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  // Kept short on purpose: this function is in both clients' browser bundles (20 KB budget).
  const ms = Number(headers.get('retry-after-ms') || Number.NaN);
  const value = headers.get('retry-after') || '-'; // Headers trim values already
  // Seconds are digits only (`-5` is no delay); an HTTP date names its day and month.
  const wait =
    ms >= 0
      ? ms
      : /^\d+$/.test(value)
        ? +value * 1000
        : /[a-z]/i.test(value)
          ? Date.parse(value) - now
          : Number.NaN;
  return Number.isNaN(wait) ? undefined : Math.max(0, wait);
}
