import fc from 'fast-check';

/*
 * Generated data and queries inside the subset, for differential testing. Terms come from a small
 * pool so that joins, OPTIONALs and filters actually meet. Numeric literals in the data are in
 * canonical form because Oxigraph stores numbers by value (it would turn "2.0" into "2").
 */

const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

export const SUBJECTS = ['s0', 's1', 's2', 's3', 's4'].map((name) => `<${EX}${name}>`);
export const PREDICATES = ['p0', 'p1', 'p2'].map((name) => `<${EX}${name}>`);
export const LITERALS = [
  '"a"',
  '"b"',
  '"ab"',
  '"B"',
  '""',
  '"a"@en',
  '"b"@fr',
  '"ab"@en-gb',
  `"0"^^<${XSD}integer>`,
  `"1"^^<${XSD}integer>`,
  `"2"^^<${XSD}integer>`,
  `"-3"^^<${XSD}integer>`,
  `"1.5"^^<${XSD}decimal>`,
  `"2.5"^^<${XSD}decimal>`,
  `"-0.5"^^<${XSD}decimal>`,
  `"true"^^<${XSD}boolean>`,
  `"false"^^<${XSD}boolean>`,
];
const OBJECTS = [...SUBJECTS, ...LITERALS, '_:blank'];
const VARS = ['?a', '?b', '?c', '?d', '?p'];

export const dataArbitrary = fc
  .array(
    fc.tuple(
      fc.constantFrom(...SUBJECTS, '_:blank'),
      fc.constantFrom(...PREDICATES),
      fc.constantFrom(...OBJECTS),
    ),
    { minLength: 8, maxLength: 40 },
  )
  .map((triples) => triples.map(([s, p, o]) => `${s} ${p} ${o} .`).join('\n'));

const varArb = fc.constantFrom(...VARS);
// Subjects use ?a/?b, objects ?b/?c/?d: patterns chain into joins instead of self-loops.
const subjectVar = fc.constantFrom('?a', '?a', '?b');
const objectVar = fc.constantFrom('?b', '?c', '?d');
const triplePattern = fc
  .tuple(
    fc.oneof(
      { weight: 6, arbitrary: subjectVar },
      { weight: 1, arbitrary: fc.constantFrom(...SUBJECTS) },
    ),
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...PREDICATES) },
      { weight: 1, arbitrary: fc.constant('?p') },
    ),
    fc.oneof(
      { weight: 6, arbitrary: objectVar },
      { weight: 1, arbitrary: fc.constantFrom(...OBJECTS.filter((o) => o !== '_:blank')) },
    ),
  )
  .map(([subject, predicate, object]) => `${subject} ${predicate} ${object} .`);

const bgp = fc
  .array(triplePattern, { minLength: 1, maxLength: 3 })
  .map((patterns) => patterns.join(' '));

const constant = fc.constantFrom(
  ...LITERALS.filter((l) => !l.includes('E0')),
  ...SUBJECTS.slice(0, 2),
  '1',
  '"a"',
  '2.5',
);

const atom: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(varArb, fc.constantFrom('=', '!='), fc.oneof(varArb, constant))
    .map(([a, op, b]) => `${a} ${op} ${b}`),
  // SPARQL 1.1 defines < > <= >= on numbers, strings, booleans and dates only; Oxigraph also orders
  // IRIs and language-tagged strings (an extension), so the operands are guarded.
  fc
    .tuple(varArb, fc.constantFrom('<', '>', '<=', '>='), fc.oneof(varArb, constant))
    .map(
      ([a, op, b]) =>
        `isLiteral(${a}) && isLiteral(${b}) && LANG(${a}) = "" && LANG(${b}) = "" && ${a} ${op} ${b}`,
    ),
  varArb.map((v) => `BOUND(${v})`),
  fc
    .tuple(fc.constantFrom('isIRI', 'isLiteral', 'isBlank', 'isNumeric'), varArb)
    .map(([f, v]) => `${f}(${v})`),
  fc
    .tuple(
      fc.constantFrom('CONTAINS', 'STRSTARTS', 'STRENDS'),
      varArb,
      fc.constantFrom('"a"', '"b"', '""', '"a"@en'),
    )
    .map(([f, v, s]) => `${f}(${v}, ${s})`),
  fc
    .tuple(fc.constantFrom('CONTAINS', 'STRSTARTS'), varArb, fc.constantFrom('"a"', '"B"'))
    .map(([f, v, s]) => `${f}(LCASE(STR(${v})), ${s})`),
  fc.tuple(varArb, fc.constantFrom('"en"', '"fr"', '""')).map(([v, l]) => `LANG(${v}) = ${l}`),
  fc.tuple(varArb, fc.constantFrom('"en"', '"*"')).map(([v, l]) => `LANGMATCHES(LANG(${v}), ${l})`),
  fc.tuple(varArb, fc.integer({ min: 0, max: 2 })).map(([v, n]) => `STRLEN(STR(${v})) > ${n}`),
  fc
    .tuple(varArb, fc.constantFrom('+', '-', '*', '/'), fc.constantFrom('1', '2', '0.5', '?b'))
    .map(([v, op, n]) => `${v} ${op} ${n} > 1`),
  fc
    .tuple(varArb, fc.array(constant, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([v, list, not]) => `${v} ${not ? 'NOT IN' : 'IN'} (${list.join(', ')})`),
  fc.tuple(varArb, varArb).map(([a, b]) => `sameTerm(${a}, ${b})`),
  fc
    .tuple(varArb, fc.constantFrom('"a"', '1'))
    .map(([v, c]) => `${v}`.concat(` = ${c} || !BOUND(${v})`)),
  varArb.map((v) => `DATATYPE(${v}) = <${XSD}integer>`),
  varArb.map((v) => `UCASE(${v}) = "AB"`),
);

export const expressionArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: atom },
  {
    weight: 1,
    arbitrary: fc
      .tuple(atom, fc.constantFrom('&&', '||'), atom)
      .map(([a, op, b]) => `(${a}) ${op} (${b})`),
  },
  { weight: 1, arbitrary: atom.map((a) => `!(${a})`) },
  // A bare variable takes its effective boolean value; language-tagged literals are left out because
  // Oxigraph raises an error where SPARQL 1.1 §17.2.2 gives "non-empty" (plain literals include them).
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('isLiteral', 'isNumeric'), varArb)
      .map(([f, v]) => `${f}(${v}) && LANG(${v}) = "" && ${v}`),
  },
);

const filter = expressionArbitrary.map((e) => `FILTER(${e})`);

const groupArbitrary: fc.Arbitrary<string> = fc.letrec<{ group: string }>((tie) => ({
  group: fc
    .tuple(
      bgp,
      fc.array(
        fc.oneof(
          {
            weight: 5,
            arbitrary: fc
              .tuple(bgp, fc.option(filter, { nil: '' }))
              .map(([b, f]) => `OPTIONAL { ${b} ${f} }`),
          },
          { weight: 2, arbitrary: filter },
          { weight: 1, arbitrary: fc.tuple(bgp, bgp).map(([x, y]) => `{ ${x} } UNION { ${y} }`) },
          { weight: 1, arbitrary: bgp.map((b) => `MINUS { ${b} }`) },
          {
            weight: 2,
            arbitrary: fc
              .tuple(expressionArbitrary, fc.constantFrom('?e', '?f'))
              .map(([e, v]) => `BIND(${e} AS ${v})`),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(
                fc.constantFrom('?a', '?b'),
                fc.array(fc.constantFrom(...SUBJECTS, ...LITERALS.slice(0, 3)), {
                  minLength: 1,
                  maxLength: 4,
                }),
              )
              .map(([v, values]) => `VALUES ${v} { ${values.join(' ')} }`),
          },
          { weight: 1, arbitrary: bgp.map((b) => `FILTER NOT EXISTS { ${b} }`) },
          { weight: 1, arbitrary: tie('group').map((g) => `OPTIONAL { ${g} }`) },
        ),
        { maxLength: 2 },
      ),
    )
    .map(([first, rest]) => `${first} ${rest.join(' ')}`),
})).group;

export interface GeneratedQuery {
  text: string;
  /** Variables ORDER BY sorts on, in order (empty when unordered). */
  orderBy: string[];
  sliced: boolean;
  /** The same query without LIMIT/OFFSET. */
  unsliced: string;
}

export const queryArbitrary: fc.Arbitrary<GeneratedQuery> = fc
  .tuple(
    fc.constantFrom('SELECT', 'SELECT', 'SELECT DISTINCT', 'SELECT DISTINCT', 'ASK'),
    fc.option(fc.uniqueArray(varArb, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    groupArbitrary,
    fc.option(fc.tuple(varArb, fc.boolean()), { nil: undefined }),
    fc.option(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3 })), {
      nil: undefined,
    }),
  )
  .map(([form, projection, group, order, slice]) => {
    if (form === 'ASK') {
      const text = `ASK { ${group} }`;
      return { text, orderBy: [], sliced: false, unsliced: text };
    }
    // The ORDER BY variable is always projected, so that the order can be checked on the output.
    const projected =
      projection && order && !projection.includes(order[0])
        ? [...projection, order[0]]
        : projection;
    const vars = projected ? projected.join(' ') : '*';
    let text = `${form} ${vars} WHERE { ${group} }`;
    const orderBy: string[] = [];
    if (order) {
      text += ` ORDER BY ${order[1] ? `DESC(${order[0]})` : order[0]}`;
      orderBy.push(order[0].slice(1));
    }
    const unsliced = text;
    if (slice && order) text += ` LIMIT ${slice[0]} OFFSET ${slice[1]}`;
    return { text, orderBy, sliced: slice !== undefined && order !== undefined, unsliced };
  });
