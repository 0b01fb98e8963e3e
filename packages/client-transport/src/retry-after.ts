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
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its day and month; a bare number such as `-5` is not one.
  if (!/[A-Za-z]/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
