import { describe, expect, it } from 'vitest';
import { acceptQuality, parseAccept } from './accept-header';

describe('parseAccept', () => {
  it('reads ranges in order, lower-cased, with their q-values', () => {
    expect(parseAccept('Text/Turtle;q=0.5, application/ld+json ; charset=utf-8')).toEqual([
      { type: 'text', subtype: 'turtle', q: 0.5 },
      { type: 'application', subtype: 'ld+json', q: 1 },
    ]);
  });

  it('counts an invalid q as 0, skips ranges without a subtype and reads at most 64', () => {
    expect(parseAccept('a/b;q=2, c/d;q=0.1234, e/f;q=x, nonsense, g/h;Q=0.25')).toEqual([
      { type: 'a', subtype: 'b', q: 0 },
      { type: 'c', subtype: 'd', q: 0 },
      { type: 'e', subtype: 'f', q: 0 },
      { type: 'g', subtype: 'h', q: 0.25 },
    ]);
    expect(parseAccept(Array.from({ length: 1000 }, (_, i) => `x/y${i}`).join(','))).toHaveLength(
      64,
    );
  });
});

describe('acceptQuality', () => {
  const ranges = parseAccept('text/*;q=0.4, */*;q=0.1, text/csv;q=0, application/json');
  it('takes the most specific matching range', () => {
    expect(acceptQuality('text/tab-separated-values', ranges)).toBe(0.4);
    expect(acceptQuality('text/csv', ranges)).toBe(0);
    expect(acceptQuality('image/png', ranges)).toBe(0.1);
    expect(acceptQuality('Application/JSON', ranges)).toBe(1);
    expect(acceptQuality('image/png', parseAccept('text/plain'))).toBe(0);
  });
  it('with exact, counts only a range that names the type', () => {
    expect(acceptQuality('text/xml', ranges, { exact: true })).toBe(0);
    expect(acceptQuality('application/json', ranges, { exact: true })).toBe(1);
  });
});
