import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser, Store } from 'n3';
import { evaluate } from '../../src/evaluate';
import { parseQuery } from '../../src/parse-query';
import { PROBLEM_CODES, type Problem } from '../../src/problem-codes';
import { sameSolutions } from './compare';
import { readManifest, type TestCase } from './manifest';
import { readExpected, type Solution, solutionsOfJson } from './result-sets';

/** The suite sits next to the checkout: `<repo>/../shared/w3c-sparql-tests`. */
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const W3C_SUITE = join(REPO_ROOT, '..', 'shared', 'w3c-sparql-tests');

/** The folders of the suite that are run: every test of each is in `expectations.ts`. */
export const W3C_FOLDERS: readonly string[] = [
  ...[
    'basic',
    'triple-match',
    'optional',
    'optional-filter',
    'algebra',
    'bound',
    'sort',
    'solution-seq',
    'expr-builtin',
    'expr-ops',
    'expr-equals',
    'boolean-effective-value',
    'type-promotion',
    'open-world',
    'i18n',
    'regex',
    'distinct',
  ].map((name) => `sparql10/${name}`),
  ...[
    'functions',
    'bind',
    'bindings',
    'negation',
    'exists',
    'project-expression',
    'syntax-query',
  ].map((name) => `sparql11/${name}`),
];

/**
 * What happened to one W3C test. A rejection lists the distinct problems as `CODE(part)`, sorted,
 * so that a query rejected for one more reason, or for another one, is a different outcome.
 */
export type W3cOutcome =
  | { status: 'passed' }
  | { status: 'rejected'; problems: string[] }
  | { status: 'failed'; why: string };

/** One test of the suite with its outcome; `id` is `<folder>#<entry>`, the key of `expectations.ts`. */
export interface W3cResult {
  id: string;
  folder: string;
  name: string;
  queryFile: string;
  outcome: W3cOutcome;
}

function problemKeys(problems: readonly Problem[]): string[] {
  const keys = problems.map((p) => (p.location?.part ? `${p.code}(${p.location.part})` : p.code));
  return [...new Set(keys)].sort();
}

function loadData(files: string[]): Store {
  const store = new Store();
  for (const file of files) {
    const parser = new Parser({
      baseIRI: pathToFileURL(file).href,
      format: file.endsWith('.nt') ? 'N-Triples' : 'Turtle',
    });
    store.addQuads(parser.parse(readFileSync(file, 'utf8')));
  }
  return store;
}

function show(solutions: Solution[]): string {
  return solutions.map((s) => JSON.stringify(s)).join('\n      ');
}

async function run(test: TestCase): Promise<W3cOutcome> {
  const text = readFileSync(test.queryFile, 'utf8');
  const parsed = parseQuery(text, { baseIRI: pathToFileURL(test.queryFile).href });
  if (test.kind === 'negative-syntax') {
    if (parsed.success) return { status: 'failed', why: 'accepted a query that is not SPARQL' };
    // Refused, but for a feature outside the subset before its syntax error was seen.
    if (!parsed.problems.some((p) => p.code === PROBLEM_CODES.SYNTAX_ERROR))
      return { status: 'rejected', problems: problemKeys(parsed.problems) };
    return { status: 'passed' };
  }
  if (!parsed.success) {
    const syntax = parsed.problems.find((p) => p.code === PROBLEM_CODES.SYNTAX_ERROR);
    if (syntax || parsed.problems.length === 0)
      return { status: 'failed', why: `rejected a valid query: ${syntax?.message}` };
    return { status: 'rejected', problems: problemKeys(parsed.problems) };
  }
  if (test.kind === 'positive-syntax') return { status: 'passed' };
  // Named graphs given to the test are a dataset feature: this engine merges every graph into the default graph.
  if (test.graphDataFiles.length > 0)
    return {
      status: 'rejected',
      problems: [`${PROBLEM_CODES.DATASET_NOT_SUPPORTED}(qt:graphData)`],
    };
  if (!test.resultFile) return { status: 'failed', why: 'no expected result' };
  const expected = await readExpected(test.resultFile);
  const actual = await evaluate(parsed.query, loadData(test.dataFiles), { timeoutMs: 10_000 });
  if (expected.kind === 'boolean') {
    if ('boolean' in actual && actual.boolean === expected.value) return { status: 'passed' };
    return { status: 'failed', why: `expected ${expected.value}, got ${JSON.stringify(actual)}` };
  }
  if (!('results' in actual)) return { status: 'failed', why: 'expected bindings, got a boolean' };
  const solutions = solutionsOfJson(actual.results.bindings);
  const ordered = expected.ordered && parsed.query.order.length > 0;
  if (sameSolutions(expected.solutions, solutions, ordered)) return { status: 'passed' };
  // Ties under ORDER BY may come in any order: then the sort keys must still match position by position.
  if (ordered && sameSolutions(expected.solutions, solutions, false)) {
    const keys = parsed.query.order.map((condition) =>
      condition.expression.type === 'var' ? condition.expression.name : undefined,
    );
    if (keys.every((key) => key !== undefined)) {
      const project = (rows: Solution[]) =>
        rows.map(
          (row): Solution =>
            Object.fromEntries(
              keys.flatMap((key) =>
                row[key as string] ? [[key as string, row[key as string] as string]] : [],
              ),
            ),
        );
      if (sameSolutions(project(expected.solutions), project(solutions), true))
        return { status: 'passed' };
    }
  }
  return {
    status: 'failed',
    why: `expected\n      ${show(expected.solutions)}\n    got\n      ${show(solutions)}`,
  };
}

/** Runs one test; an exception is a failure with its stack. */
export async function runW3cTest(test: TestCase): Promise<W3cOutcome> {
  try {
    return await run(test);
  } catch (error) {
    return {
      status: 'failed',
      why: `threw ${error instanceof Error ? error.stack : String(error)}`,
    };
  }
}

/** Runs every test of {@link W3C_FOLDERS}, in manifest order. */
export async function runW3cSuite(): Promise<W3cResult[]> {
  const results: W3cResult[] = [];
  const ids = new Set<string>();
  for (const folder of W3C_FOLDERS) {
    for (const test of readManifest(join(W3C_SUITE, folder))) {
      const entry = test.iri.includes('#')
        ? test.iri.slice(test.iri.lastIndexOf('#') + 1)
        : test.name;
      const id = `${folder}#${entry}`;
      if (ids.has(id)) throw new Error(`Two tests are named ${id}`);
      ids.add(id);
      results.push({
        id,
        folder,
        name: test.name,
        queryFile: test.queryFile,
        outcome: await runW3cTest(test),
      });
    }
  }
  return results;
}
