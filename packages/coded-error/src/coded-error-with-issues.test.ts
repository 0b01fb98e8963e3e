import { describe, expect, it } from 'vitest';
import { CodedErrorWithIssues } from './coded-error-with-issues';

const BRAND = Symbol.for('dcg.coded-error.issues-test');

interface Issue {
  code: string;
  path: string;
}

class InputError extends CodedErrorWithIssues<'invalid_input' | 'not_found', Issue> {
  constructor(
    code: 'invalid_input' | 'not_found',
    message: string,
    options?: { issues?: Issue[] },
  ) {
    super(BRAND, code, message, options);
    this.name = 'InputError';
  }
}

describe('CodedErrorWithIssues', () => {
  it('carries the issues it was given, with the code and message', () => {
    const issues = [{ code: 'required', path: '$.name' }];
    const error = new InputError('invalid_input', 'bad body', { issues });
    expect(error).toMatchObject({ code: 'invalid_input', message: 'bad body', issues });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: 'invalid_input',
      name: 'InputError',
      issues,
    });
  });

  it('has an empty list when the error is not about an input', () => {
    expect(new InputError('not_found', 'no such thing').issues).toEqual([]);
  });
});
