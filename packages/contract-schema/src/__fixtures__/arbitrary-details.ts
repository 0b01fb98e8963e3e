import fc from 'fast-check';

/**
 * Random A4 details documents: valid most of the time, with every kind of defect mixed in
 * (wrong types, both or neither of `compliant`/`children`, stray `issues`), nested up to 16
 * levels so that some cross the fast path's unrolled depth.
 *
 * @example
 * fc.assert(fc.property(arbitraryDetails, (doc) => typeof doc === 'object'));
 */
export const arbitraryDetails = (() => {
  const { record } = fc.letrec<{ record: unknown }>((tie) => {
    const children = fc.array(tie('record'), { maxLength: 3, depthIdentifier: 'records' });
    const optional = { name: fc.string({ maxLength: 3 }), extra: fc.jsonValue({ maxDepth: 1 }) };
    return {
      record: fc.oneof(
        { maxDepth: 16, depthIdentifier: 'records' },
        {
          weight: 5,
          arbitrary: fc.record(
            {
              key: fc.string({ maxLength: 4 }),
              compliant: fc.boolean(),
              issues: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
              ...optional,
            },
            { requiredKeys: ['key', 'compliant'] },
          ),
        },
        {
          weight: 3,
          arbitrary: fc.record(
            { key: fc.string({ maxLength: 4 }), children, ...optional },
            { requiredKeys: ['key', 'children'] },
          ),
        },
        {
          weight: 1,
          arbitrary: fc.record(
            {
              key: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
              compliant: fc.oneof(fc.boolean(), fc.constant('yes')),
              issues: fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), {
                maxLength: 2,
              }),
              children,
              ...optional,
            },
            { requiredKeys: [] },
          ),
        },
      ),
    };
  });
  return fc.record(
    {
      results: fc.dictionary(
        fc.constantFrom('root', 'urn:dmb:cmp:a:b:0:p'),
        fc.array(record, { maxLength: 3 }),
      ),
      notes: fc.record({
        errorSummary: fc.record({ message: fc.oneof(fc.string(), fc.integer()) }),
      }),
    },
    { requiredKeys: ['results'] },
  );
})();
