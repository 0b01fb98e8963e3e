import type { W3cOutcome, W3cResult } from './run-w3c-test';

/**
 * The expected outcome of one W3C test: it passes, or the query is rejected with these problems
 * (`CODE(part)`, sorted) for the reason given. `knownGap` marks a rejection of a query that lies
 * inside the subset the specification promises (Limits 3): a gap to close, not a choice.
 */
export type W3cExpectation =
  | { status: 'passed' }
  | { status: 'rejected'; problems: readonly string[]; why: string; knownGap: boolean };

export const PASS: W3cExpectation = { status: 'passed' };

/** A rejection outside the promised subset, with one reason per feature refused. */
export function rejected(problems: readonly string[], ...why: string[]): W3cExpectation {
  return { status: 'rejected', problems, why: why.join('; '), knownGap: false };
}

/** A rejection of a query inside the promised subset (Limits 3); written under `// known gap:`. */
export function knownGap(problems: readonly string[], ...why: string[]): W3cExpectation {
  return { status: 'rejected', problems, why: why.join('; '), knownGap: true };
}

function describe(outcome: W3cOutcome | W3cExpectation | undefined): string {
  if (!outcome) return 'not in the list';
  if (outcome.status === 'passed') return 'passes';
  if (outcome.status === 'rejected') return `rejected ${outcome.problems.join(', ')}`;
  return `a wrong answer: ${outcome.why}`;
}

function same(expected: W3cExpectation, actual: W3cOutcome): boolean {
  if (expected.status === 'passed') return actual.status === 'passed';
  return (
    actual.status === 'rejected' &&
    actual.problems.length === expected.problems.length &&
    actual.problems.every((problem, i) => problem === expected.problems[i])
  );
}

/**
 * Every difference between the outcomes of a run and the list, one line each: a changed outcome,
 * a test missing from the list, an entry of the list no test answers to.
 */
export function changedEntries(
  results: readonly W3cResult[],
  expectations: Readonly<Record<string, W3cExpectation>>,
): string[] {
  const changes: string[] = [];
  const seen = new Set<string>();
  for (const result of results) {
    seen.add(result.id);
    const expected = expectations[result.id];
    if (expected && same(expected, result.outcome)) continue;
    changes.push(
      `${result.id} (${result.name}): expected ${describe(expected)}, now ${describe(result.outcome)}`,
    );
  }
  for (const id of Object.keys(expectations)) {
    if (!seen.has(id)) changes.push(`${id}: in the list, but no such test was run`);
  }
  return changes;
}

/** Totals per folder and overall: passes, rejections by problem code, known gaps. */
export function summary(
  results: readonly W3cResult[],
  expectations: Readonly<Record<string, W3cExpectation>>,
): string {
  const codeOf = (problem: string) => problem.replace(/\(.*$/, '');
  const rows = new Map<string, { passed: number; rejected: Map<string, number>; failed: number }>();
  const total = { passed: 0, rejected: new Map<string, number>(), failed: 0 };
  let rejectedTests = 0;
  for (const result of results) {
    const row = rows.get(result.folder) ?? { passed: 0, rejected: new Map(), failed: 0 };
    rows.set(result.folder, row);
    const { outcome } = result;
    if (outcome.status === 'passed') {
      row.passed++;
      total.passed++;
    } else if (outcome.status === 'failed') {
      row.failed++;
      total.failed++;
    } else {
      rejectedTests++;
      // A test rejected for two codes counts under both.
      for (const code of new Set(outcome.problems.map(codeOf))) {
        row.rejected.set(code, (row.rejected.get(code) ?? 0) + 1);
        total.rejected.set(code, (total.rejected.get(code) ?? 0) + 1);
      }
    }
  }
  const byCode = (counts: Map<string, number>) =>
    [...counts].map(([code, count]) => `${code} ${count}`).join(', ');
  const gaps = results.filter((r) => {
    const expected = expectations[r.id];
    return expected?.status === 'rejected' && expected.knownGap && same(expected, r.outcome);
  });
  return [
    `${'folder'.padEnd(34)}  passed  failed  rejected by code`,
    ...[...rows].map(
      ([folder, row]) =>
        `${folder.padEnd(34)}${String(row.passed).padStart(8)}${String(row.failed).padStart(8)}  ${byCode(row.rejected)}`,
    ),
    '',
    `W3C SPARQL suite: ${results.length} tests, ${total.passed} passed, ${rejectedTests} rejected, ${total.failed} failed`,
    `rejected by code: ${byCode(total.rejected) || 'none'}`,
    `known gaps (rejected inside the promised subset): ${gaps.length}${gaps.map((r) => `\n  ${r.id}: ${(expectations[r.id] as { why: string }).why}`).join('')}`,
  ].join('\n');
}
