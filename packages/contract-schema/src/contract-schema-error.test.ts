import { describe, expect, it } from 'vitest';
import { ContractSchemaError } from './contract-schema-error';

describe('ContractSchemaError', () => {
  it('carries a code and a cause', () => {
    const cause = new Error('low level');
    const error = new ContractSchemaError('invalid_yaml', 'bad yaml', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ContractSchemaError');
    expect(error.code).toBe('invalid_yaml');
    expect(error.cause).toBe(cause);
  });

  it('is recognised across copies of the library through Symbol.for', () => {
    const foreign = Object.assign(new Error('from another copy'), {
      [Symbol.for('dcg.contract-schema.error')]: true,
      code: 'invalid_json',
    });
    expect(ContractSchemaError.isInstance(foreign)).toBe(true);
    expect(ContractSchemaError.isInstance(new Error('plain'))).toBe(false);
    expect(ContractSchemaError.isInstance(null)).toBe(false);
  });
});
