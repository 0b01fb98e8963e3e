import { describe, expect, it } from 'vitest';
import { CodedError, hasBrand } from './coded-error';

const BRAND = Symbol.for('dcg.coded-error.test');

class ExampleError extends CodedError<'bad' | 'worse'> {
  constructor(code: 'bad' | 'worse', message: string, options?: { cause?: unknown }) {
    super(BRAND, code, message, options);
    this.name = 'ExampleError';
  }

  static isInstance = hasBrand<ExampleError>(BRAND);
}

class OtherError extends CodedError<'bad'> {
  constructor() {
    super(Symbol.for('dcg.coded-error.other'), 'bad', 'other');
  }
}

describe('CodedError', () => {
  it('carries its code, message, name and cause', () => {
    const cause = new Error('root');
    const error = new ExampleError('worse', 'went worse', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: 'worse', message: 'went worse', name: 'ExampleError' });
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('ExampleError: went worse');
  });

  it('has no own cause when none was given', () => {
    expect(Object.hasOwn(new ExampleError('bad', 'x'), 'cause')).toBe(false);
    expect(Object.hasOwn(new ExampleError('bad', 'x', { cause: undefined }), 'cause')).toBe(false);
  });

  it('is recognised by its brand, also when made by another copy of its package', () => {
    // Another copy: a different class with the same Symbol.for brand.
    class CopiedError extends CodedError<'bad'> {
      constructor() {
        super(Symbol.for('dcg.coded-error.test'), 'bad', 'copied');
      }
    }
    expect(ExampleError.isInstance(new ExampleError('bad', 'x'))).toBe(true);
    expect(ExampleError.isInstance(new CopiedError())).toBe(true);
    expect(ExampleError.isInstance(new OtherError())).toBe(false);
    expect(ExampleError.isInstance(new Error('plain'))).toBe(false);
    for (const value of [null, undefined, 'bad', 42, {}]) {
      expect(ExampleError.isInstance(value)).toBe(false);
    }
  });

  it('keeps the brand out of what is enumerated and printed', () => {
    const error = new ExampleError('bad', 'x');
    expect(Object.keys(error)).toEqual(['code', 'name']);
    expect(JSON.stringify(error)).toBe('{"code":"bad","name":"ExampleError"}');
  });
});
