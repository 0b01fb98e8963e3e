import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser, Store } from 'n3';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluate } from '../src/evaluate';
import { parseQuery } from '../src/parse-query';
import { PROBLEM_CODES } from '../src/problem-codes';
import { sameSolutions } from './w3c/compare';
import { readManifest, type TestCase } from './w3c/manifest';
import { readExpected, type Solution, solutionsOfJson } from './w3c/result-sets';

/** The suite sits next to the checkout: `<repo>/../shared/w3c-sparql-tests`. */
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SUITE = join(REPO_ROOT, '..', 'shared', 'w3c-sparql-tests');

const FOLDERS = [
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

type Outcome =
  | { status: 'passed' }
  | { status: 'rejected'; code: string }
  | { status: 'failed'; why: string };

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

async function run(test: TestCase): Promise<Outcome> {
  const text = readFileSync(test.queryFile, 'utf8');
  const parsed = parseQuery(text, { baseIRI: pathToFileURL(test.queryFile).href });
  if (test.kind === 'negative-syntax') {
    return parsed.success
      ? { status: 'failed', why: 'accepted a query that is not SPARQL' }
      : { status: 'passed' };
  }
  if (!parsed.success) {
    const problem = parsed.problems[0];
    if (!problem || problem.code === PROBLEM_CODES.SYNTAX_ERROR)
      return { status: 'failed', why: `rejected a valid query: ${problem?.message}` };
    return { status: 'rejected', code: problem.code };
  }
  if (test.kind === 'positive-syntax') return { status: 'passed' };
  // Named graphs given to the test are a dataset feature: this engine merges every graph into the default graph.
  if (test.graphDataFiles.length > 0)
    return { status: 'rejected', code: PROBLEM_CODES.DATASET_NOT_SUPPORTED };
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

const table: { folder: string; passed: number; rejected: number; failed: number; why: string }[] =
  [];

describe('W3C SPARQL test suite', () => {
  afterAll(() => {
    const total = table.reduce(
      (sum, row) => ({
        passed: sum.passed + row.passed,
        rejected: sum.rejected + row.rejected,
        failed: sum.failed + row.failed,
      }),
      { passed: 0, rejected: 0, failed: 0 },
    );
    const line = (
      folder: string,
      r: { passed: number; rejected: number; failed: number; why?: string },
    ) =>
      `${folder.padEnd(34)}${String(r.passed).padStart(8)}${String(r.rejected).padStart(10)}${String(r.failed).padStart(8)}  ${r.why ?? ''}`;
    console.log(
      [
        `${'folder'.padEnd(34)}  passed  rejected  failed  rejected because`,
        ...table.map((row) => line(row.folder, row)),
        line('total', total),
      ].join('\n'),
    );
  });

  for (const folder of FOLDERS) {
    it(folder, async () => {
      const tests = readManifest(join(SUITE, folder));
      const counts = { folder, passed: 0, rejected: 0, failed: 0 };
      const failures: string[] = [];
      const rejections: Record<string, number> = {};
      for (const test of tests) {
        let outcome: Outcome;
        try {
          outcome = await run(test);
        } catch (error) {
          outcome = {
            status: 'failed',
            why: `threw ${error instanceof Error ? error.stack : String(error)}`,
          };
        }
        if (outcome.status === 'passed') counts.passed++;
        else if (outcome.status === 'rejected') {
          counts.rejected++;
          rejections[outcome.code] = (rejections[outcome.code] ?? 0) + 1;
        } else {
          counts.failed++;
          failures.push(`${test.name} (${relative(SUITE, test.queryFile)}): ${outcome.why}`);
        }
      }
      const why = Object.entries(rejections)
        .map(([code, count]) => `${code} ${count}`)
        .join(', ');
      table.push({ ...counts, why });
      expect(tests.length).toBeGreaterThan(0);
      expect(failures, failures.join('\n')).toEqual([]);
    });
  }
});
