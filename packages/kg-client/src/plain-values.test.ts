import type { RdfTerm } from '@dcg/kg-schema';
import { describe, expect, it } from 'vitest';
import { toPlainRows, toPlainValue } from './plain-values';

const xsd = 'http://www.w3.org/2001/XMLSchema#';
const typed = (value: string, type: string): RdfTerm => ({
  type: 'literal',
  value,
  datatype: `${xsd}${type}`,
});

describe('toPlainValue', () => {
  it('turns IRIs, blank nodes and plain literals into strings', () => {
    expect(toPlainValue({ type: 'uri', value: 'https://ex.org/a' })).toBe('https://ex.org/a');
    expect(toPlainValue({ type: 'bnode', value: 'b1' })).toBe('_:b1');
    expect(toPlainValue({ type: 'literal', value: 'plain' })).toBe('plain');
    expect(toPlainValue(typed('typed string', 'string'))).toBe('typed string');
  });

  it('keeps the language tag, or drops it on request', () => {
    const term: RdfTerm = { type: 'literal', value: 'Wasser', 'xml:lang': 'de-CH' };
    expect(toPlainValue(term)).toEqual({ value: 'Wasser', lang: 'de-CH' });
    expect(toPlainValue(term, { langStrings: 'string' })).toBe('Wasser');
  });

  it('turns XSD numbers into numbers and booleans into booleans', () => {
    expect(toPlainValue(typed('42', 'integer'))).toBe(42);
    expect(toPlainValue(typed('-7', 'int'))).toBe(-7);
    expect(toPlainValue(typed('+3', 'nonNegativeInteger'))).toBe(3);
    expect(toPlainValue(typed('2.50', 'decimal'))).toBe(2.5);
    expect(toPlainValue(typed('1.5E3', 'double'))).toBe(1500);
    expect(toPlainValue(typed('-INF', 'float'))).toBe(Number.NEGATIVE_INFINITY);
    expect(toPlainValue(typed('NaN', 'double'))).toBeNaN();
    expect(toPlainValue(typed('true', 'boolean'))).toBe(true);
    expect(toPlainValue(typed('0', 'boolean'))).toBe(false);
  });

  it('keeps integers beyond 2^53 exact, as their lexical string', () => {
    expect(toPlainValue(typed('123456789012345678901234567890', 'integer'))).toBe(
      '123456789012345678901234567890',
    );
  });

  it('keeps ill-typed literals and other datatypes as their text', () => {
    expect(toPlainValue(typed('forty-two', 'integer'))).toBe('forty-two');
    expect(toPlainValue(typed('1,5', 'decimal'))).toBe('1,5');
    expect(toPlainValue(typed('yes', 'boolean'))).toBe('yes');
    expect(toPlainValue(typed('2024-05-01', 'date'))).toBe('2024-05-01');
  });

  it('converts quoted triples part by part', () => {
    expect(
      toPlainValue({
        type: 'triple',
        value: {
          subject: { type: 'uri', value: 'https://ex.org/s' },
          predicate: { type: 'uri', value: 'https://ex.org/p' },
          object: typed('1', 'integer'),
        },
      }),
    ).toEqual({ subject: 'https://ex.org/s', predicate: 'https://ex.org/p', object: 1 });
  });
});

describe('toPlainRows', () => {
  it('maps every row and leaves unbound variables out', () => {
    const rows = toPlainRows<'s' | 'n'>({
      head: { vars: ['s', 'n'] },
      results: {
        bindings: [{ s: { type: 'uri', value: 'https://ex.org/a' }, n: typed('1', 'integer') }, {}],
      },
    });
    expect(rows).toEqual([{ s: 'https://ex.org/a', n: 1 }, {}]);
    expect('n' in (rows[1] ?? {})).toBe(false);
  });
});
