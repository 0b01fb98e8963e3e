import { describe, expect, it } from 'vitest';
import { odcsColumnFlags, witboostColumnFlags, witboostConstraints } from './data-contract-columns';

describe('Witboost column constraints', () => {
  it('reads constraint and constraints, each a string or a list, written loosely', () => {
    expect(
      witboostConstraints({ constraint: ' primary key ', constraints: ['Not-Null', 'unique'] }),
    ).toEqual(new Set(['PRIMARY_KEY', 'NOT_NULL', 'UNIQUE']));
    expect(witboostConstraints({ constraints: 'NOT_NULL' })).toEqual(new Set(['NOT_NULL']));
    expect(witboostConstraints({ constraint: 42, constraints: [null, 'UNIQUE'] })).toEqual(
      new Set(['UNIQUE']),
    );
    expect(witboostConstraints({})).toEqual(new Set());
  });

  it('makes a key column required; unique is its own declaration', () => {
    expect(witboostColumnFlags(new Set(['PRIMARY_KEY']))).toEqual({
      required: true,
      unique: false,
      primaryKey: true,
    });
    expect(witboostColumnFlags(new Set(['NOT_NULL', 'UNIQUE']))).toEqual({
      required: true,
      unique: true,
      primaryKey: false,
    });
    expect(witboostColumnFlags(new Set(['CHECK']))).toEqual({
      required: false,
      unique: false,
      primaryKey: false,
    });
  });
});

describe('ODCS column flags', () => {
  it('reads required, unique and primaryKey, and the keys before v3', () => {
    expect(odcsColumnFlags({ required: true, unique: true })).toEqual({
      required: true,
      unique: true,
      primaryKey: false,
    });
    expect(odcsColumnFlags({ primaryKey: true })).toEqual({
      required: true,
      unique: false,
      primaryKey: true,
    });
    expect(odcsColumnFlags({ isNullable: false, isUnique: true })).toEqual({
      required: true,
      unique: true,
      primaryKey: false,
    });
  });

  it('declares nothing but with true (or isNullable: false)', () => {
    expect(
      odcsColumnFlags({ required: 'yes', unique: 1, primaryKey: 'true', isNullable: true }),
    ).toEqual({ required: false, unique: false, primaryKey: false });
  });
});
