// Prints the plain closing line of a test run ("tests: N passed, N failed, N skipped") from
// vitest's JSON report, and fails when the run executed no test at all.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.log('tests: 0 passed, 0 failed (no report: the run did not complete)');
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests || report.numFailedTestSuites || 0;
// vitest's JSON report counts tests that did not run in two fields: numPendingTests (skipped)
// and numTodoTests (declared with it.todo); both are "skipped" in the summary line.
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
