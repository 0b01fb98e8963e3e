import { Ajv } from 'ajv';

/**
 * The independent draft-07 validator of the tests and the benchmark: ajv with every error
 * reported (as zod does). `date-time` needs no format plugin because zod emits a `pattern` for it.
 *
 * @example
 * const validate = createDraft07Validator().compile(toDraft07JsonSchema('result-details'));
 */
export function createDraft07Validator(): Ajv {
  return new Ajv({ allErrors: true, formats: { 'date-time': true } });
}
