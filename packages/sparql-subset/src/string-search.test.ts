import { Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { query } from './query';

// FILTER(CONTAINS(LCASE(?l), "…")) and its kin take a path that searches inside the term's id with
// ASCII folding; the same call in a projection takes the general path. Both must agree, also for
// characters whose Unicode lower case is ASCII (the Kelvin sign) or longer (dotted capital I).
const store = new Store(
  new Parser().parse(`
    @prefix ex: <http://example.org/> .
    ex:s ex:l "Kelvin"@en, "\u212Aelvin", "İstanbul"@tr, "ISTANBUL", "say \\"hi\\""@en, "KELVIN",
      "", "vin", "5"^^<http://www.w3.org/2001/XMLSchema#integer>, "kelvin"^^<urn:dt>, <urn:kelvin> .
  `),
);

describe('string search filters', () => {
  const needles = ['k', 'kel', 'vin', 'i', 'ist', 'i\u0307', '"hi', '', 'q', 'KEL', 'in"'];
  for (const fn of ['CONTAINS', 'STRSTARTS', 'STRENDS'])
    for (const lower of [true, false])
      it(`${fn}${lower ? ' of LCASE' : ''} agrees with the general path`, async () => {
        for (const needle of needles) {
          const arg = lower ? 'LCASE(?l)' : '?l';
          const call = `${fn}(${arg}, ${JSON.stringify(needle)})`;
          const filtered = await query(
            `PREFIX ex: <http://example.org/> SELECT ?l { ex:s ex:l ?l FILTER(${call}) }`,
            store,
          );
          const projected = await query(
            `PREFIX ex: <http://example.org/> SELECT ?l ?r { ex:s ex:l ?l BIND(${call} AS ?r) }`,
            store,
          );
          if (!('results' in filtered) || !('results' in projected)) throw new Error('SELECT');
          const kept = filtered.results.bindings.map((row) => JSON.stringify(row.l)).sort();
          const expected = projected.results.bindings
            .filter((row) => row.r?.value === 'true')
            .map((row) => JSON.stringify(row.l))
            .sort();
          expect({ needle, kept }).toEqual({ needle, kept: expected });
        }
      });

  it('folds the Kelvin sign and keeps non-string terms out', async () => {
    const results = await query(
      'PREFIX ex: <http://example.org/> SELECT ?l { ex:s ex:l ?l FILTER(STRSTARTS(LCASE(?l), "kel")) }',
      store,
    );
    if (!('results' in results)) throw new Error('SELECT');
    expect(results.results.bindings.map((row) => row.l?.value).sort()).toEqual([
      'KELVIN',
      'Kelvin',
      '\u212Aelvin',
    ]);
  });
});
