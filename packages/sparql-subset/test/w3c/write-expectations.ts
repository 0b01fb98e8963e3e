/**
 * Writes `expectations.ts`: the outcome of every test of the W3C folders run by
 * `../w3c-suite.test.ts`, as this package answers them today.
 *
 *   pnpm --filter @dcg/sparql-subset w3c:expectations
 *
 * Run it after a change that is meant to alter outcomes (a feature added to the subset, a folder
 * added to the run), then read the diff of `expectations.ts`: every line that changed is a test
 * that now passes or is now rejected. The reason of each rejection comes from REASONS below,
 * keyed by problem (`CODE(part)`); a problem with no reason stops the script, so every new kind of
 * rejection gets a reason and a decision: outside the promised subset, or a known gap (inside
 * Limits 3 of the specification). A wrong answer also stops it: those are fixed, never listed.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runW3cSuite } from './run-w3c-test';

interface Reason {
  /** The name of the constant in `expectations.ts`. */
  name: string;
  why: string;
  /** Inside the subset the specification promises (Limits 3), so a gap to close. */
  gap?: true;
}

const GRAPH: Reason = {
  name: 'GRAPH',
  why: 'GRAPH: named graphs are merged into one default graph; Limits 3 has no named graphs',
};
const REGEX: Reason = {
  name: 'REGEX',
  why: 'REGEX, REPLACE: regular-expression functions are outside the subset (Limits 4)',
};
const DATE_TIME: Reason = {
  name: 'DATE_TIME',
  why: 'date/time functions are outside the subset (Limits 4)',
};
const HASH: Reason = {
  name: 'HASH',
  why: 'hash functions are advanced, backend-dependent functions (Limits 4)',
};
const FRESH_VALUES: Reason = {
  name: 'FRESH_VALUES',
  why: 'RAND, UUID, STRUUID, BNODE make a new value per call: advanced functions (Limits 4)',
};
const IRI_BUILDING: Reason = {
  name: 'IRI_BUILDING',
  why: 'IRI()/URI() and ENCODE_FOR_URI build IRIs from strings (i18n-heavy, Limits 4); Limits 3 navigates explicit relationships only',
};
const EXTENSION_FUNCTION: Reason = {
  name: 'EXTENSION_FUNCTION',
  why: 'an extension function is backend-dependent (Limits 4)',
};
const CAST: Reason = {
  name: 'CAST',
  why: 'ORDER BY is in Limits 3, and the xsd:integer cast it sorts by is a plain conversion, none of the function families Limits 4 excludes',
  gap: true,
};
const AGGREGATE: Reason = {
  name: 'AGGREGATE',
  why: 'aggregates and GROUP BY are not in Limits 3',
};
const SUBQUERY: Reason = {
  name: 'SUBQUERY',
  why: 'subqueries are not in Limits 3 (nested patterns, Limits 4)',
};
const CONSTRUCT: Reason = {
  name: 'CONSTRUCT',
  why: 'CONSTRUCT builds a graph; Limits 3 retrieves results (SPARQL JSON only)',
};
const DATASET: Reason = {
  name: 'DATASET',
  why: 'FROM and named graph data: the dataset is always the merge of the ingested sources',
};
const ARBITRARY_PATH: Reason = {
  name: 'ARBITRARY_PATH',
  why: 'arbitrary-length property paths (*, +) are outside the subset (Limits 4)',
};
const ALTERNATIVE_PATH: Reason = {
  name: 'ALTERNATIVE_PATH',
  why: 'an alternative path p|q navigates explicit relationships (Limits 3) and has bounded length (a UNION of triple patterns), so Limits 4 does not exclude it',
  gap: true,
};

/** The reason for each problem a W3C test is rejected with. */
const REASONS: Record<string, Reason> = {
  'GRAPH_NOT_SUPPORTED(GRAPH)': GRAPH,
  'FUNCTION_NOT_SUPPORTED(REGEX)': REGEX,
  'FUNCTION_NOT_SUPPORTED(REPLACE)': REGEX,
  ...Object.fromEntries(
    ['YEAR', 'MONTH', 'DAY', 'HOURS', 'MINUTES', 'SECONDS', 'TIMEZONE', 'TZ', 'NOW'].map((f) => [
      `FUNCTION_NOT_SUPPORTED(${f})`,
      DATE_TIME,
    ]),
  ),
  ...Object.fromEntries(
    ['MD5', 'SHA1', 'SHA256', 'SHA384', 'SHA512'].map((f) => [
      `FUNCTION_NOT_SUPPORTED(${f})`,
      HASH,
    ]),
  ),
  ...Object.fromEntries(
    ['RAND', 'UUID', 'STRUUID', 'BNODE'].map((f) => [`FUNCTION_NOT_SUPPORTED(${f})`, FRESH_VALUES]),
  ),
  'FUNCTION_NOT_SUPPORTED(IRI)': IRI_BUILDING,
  'FUNCTION_NOT_SUPPORTED(URI)': IRI_BUILDING,
  'FUNCTION_NOT_SUPPORTED(ENCODE_FOR_URI)': IRI_BUILDING,
  'FUNCTION_NOT_SUPPORTED(function)': EXTENSION_FUNCTION,
  'FUNCTION_NOT_SUPPORTED(integer)': CAST,
  ...Object.fromEntries(
    ['COUNT', 'SUM', 'MIN', 'MAX', 'AVG', 'GROUP_CONCAT', 'SAMPLE', 'GROUP BY', 'HAVING'].map(
      (f) => [`AGGREGATE_NOT_SUPPORTED(${f})`, AGGREGATE],
    ),
  ),
  'SUBQUERY_NOT_SUPPORTED(SELECT)': SUBQUERY,
  'QUERY_FORM_NOT_SUPPORTED(CONSTRUCT)': CONSTRUCT,
  'DATASET_NOT_SUPPORTED(FROM)': DATASET,
  'DATASET_NOT_SUPPORTED(qt:graphData)': DATASET,
  'PROPERTY_PATH_NOT_SUPPORTED(*)': ARBITRARY_PATH,
  'PROPERTY_PATH_NOT_SUPPORTED(+)': ARBITRARY_PATH,
  'PROPERTY_PATH_NOT_SUPPORTED(|)': ALTERNATIVE_PATH,
};

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'expectations.ts');

const results = await runW3cSuite();
const stops: string[] = [];
const used = new Set<Reason>();
const lines: string[] = [];
let folder = '';
for (const result of results) {
  if (result.folder !== folder) {
    folder = result.folder;
    lines.push('', `  // ${folder}`);
  }
  const key = `  '${result.id}': `;
  // Entries such as `test_4` say little: the test's name follows them.
  const name = result.id.endsWith(`#${result.name}`) ? '' : ` // ${result.name}`;
  const { outcome } = result;
  if (outcome.status === 'passed') {
    lines.push(`${key}PASS,${name}`);
    continue;
  }
  if (outcome.status === 'failed') {
    stops.push(`${result.id} (${result.name}) gives a wrong answer: ${outcome.why}`);
    continue;
  }
  const reasons = [
    ...new Set(
      outcome.problems.map((problem) => {
        const reason = REASONS[problem];
        if (!reason) stops.push(`${result.id}: no reason for ${problem} in REASONS`);
        return reason;
      }),
    ),
  ].filter((reason): reason is Reason => reason !== undefined);
  for (const reason of reasons) used.add(reason);
  const gap = reasons.length > 0 && reasons.every((reason) => reason.gap);
  if (gap) lines.push(`  // known gap: ${reasons.map((r) => r.why).join('; ')}`);
  lines.push(
    `${key}${gap ? 'knownGap' : 'rejected'}([${outcome.problems.map((p) => `'${p}'`).join(', ')}], ${reasons.map((r) => r.name).join(', ')}),${name}`,
  );
}
if (stops.length > 0) {
  console.error(stops.join('\n'));
  process.exit(1);
}

const constants = [...used]
  .sort((a, b) => a.name.localeCompare(b.name))
  .map((reason) => `const ${reason.name} = ${JSON.stringify(reason.why)};`);
const text = `// Written by write-expectations.ts from the outcomes of today's engine; see that file before editing.
// Every W3C test that w3c-suite.test.ts runs: it passes, or it is rejected with these problems
// (\`CODE(part)\`) for the reason given. A \`// known gap:\` is a rejection inside Limits 3 of the
// specification: a gap to close, listed so that it stays visible.
import { knownGap, PASS, rejected, type W3cExpectation } from './conformance';

${constants.join('\n')}

export const W3C_EXPECTATIONS: Readonly<Record<string, W3cExpectation>> = {${lines.join('\n')}
};
`;
writeFileSync(OUT, text);
const repoRoot = join(HERE, '..', '..', '..', '..');
execFileSync(join(repoRoot, 'node_modules', '.bin', 'biome'), ['format', '--write', OUT], {
  stdio: 'inherit',
});
console.log(`wrote ${results.length} expectations to ${OUT}`);
