import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after';

describe('retryAfterMs', () => {
  it('reads retry-after-ms first, then Retry-After in seconds or as an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': ' 0 ' }))).toBe(0);
    expect(
      retryAfterMs(
        new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:10 GMT' }),
        Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'),
      ),
    ).toBe(10_000);
  });

  it('waits 0 for a date in the past and ignores what is not a delay', () => {
    expect(
      retryAfterMs(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), Date.now()),
    ).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '-5' }))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after-ms': 'x', 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});
