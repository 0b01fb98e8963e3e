import { describe, expect, it } from 'vitest';
import { fitItems } from './paging';

describe('fitItems', () => {
  const rows = Array.from({ length: 40 }, (_, i) => ({
    id: i,
    label: `row ${i} ${'é'.repeat(i)}`,
  }));
  const build = (some: readonly (typeof rows)[number][]) => ({
    rows: [...some],
    more: some.length < rows.length,
  });
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

  it('keeps every item when the whole answer fits, and gives its JSON', () => {
    const fitted = fitItems(rows, build, 1_000_000);
    expect(fitted.count).toBe(rows.length);
    expect(fitted.answer).toEqual(build(rows));
    expect(fitted.json).toBe(JSON.stringify(fitted.answer));
  });

  it('keeps the largest prefix within the limit (in UTF-8 bytes), its answer and JSON alike', () => {
    const limit = 1_200;
    const fitted = fitItems(rows, build, limit);
    expect(fitted.count).toBeGreaterThan(0);
    expect(fitted.count).toBeLessThan(rows.length);
    expect(fitted.answer).toEqual(build(rows.slice(0, fitted.count)));
    expect(fitted.json).toBe(JSON.stringify(fitted.answer));
    expect(bytes(fitted.json)).toBeLessThanOrEqual(limit);
    expect(bytes(JSON.stringify(build(rows.slice(0, fitted.count + 1))))).toBeGreaterThan(limit);
  });

  it('keeps none when not even one item fits', () => {
    const fitted = fitItems(rows, build, 40);
    expect(fitted.count).toBe(0);
    expect(fitted.answer).toEqual(build([]));
    expect(fitted.json).toBe(JSON.stringify(build([])));
  });
});
