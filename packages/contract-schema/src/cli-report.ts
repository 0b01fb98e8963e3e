import type { SourceLocation } from './source-location';

/** One problem of a file as the CLI reports it. */
export interface CliFinding {
  /** JSONPath of the value, `$` for the whole document. */
  path: string;
  /** The same path as segments, where the finding is a validation issue. */
  segments?: ReadonlyArray<string | number>;
  message: string;
  /** A stable code where there is one (lint findings, syntax errors). */
  code?: string;
  /** Where in the file, when known (GitHub annotations, JUnit). */
  location?: SourceLocation;
}

/** The outcome of one file: errors make it invalid; warnings do too under `--strict`. */
export interface CliFileReport {
  file: string;
  valid: boolean;
  /** The file could not be read (exit code 2). */
  unreadable: boolean;
  errors: CliFinding[];
  warnings: CliFinding[];
}

const displayName = (file: string) => (file === '-' ? '<stdin>' : file);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The human form: one line per file (✓ valid, ! valid with warnings, ✗ invalid), then one
 * indented line per finding.
 *
 * @example
 * formatText([{ file: 'a.json', valid: true, unreadable: false, errors: [], warnings: [] }], 'details');
 */
export function formatText(reports: readonly CliFileReport[], kind: string): string {
  let out = '';
  for (const report of reports) {
    const name = displayName(report.file);
    const { errors, warnings } = report;
    if (report.valid && warnings.length === 0) out += `✓ ${name}: valid ${kind}\n`;
    else if (report.valid) out += `! ${name}: ${kind} with ${plural(warnings.length, 'warning')}\n`;
    else {
      const counted = errors.length > 0 ? errors.length : warnings.length;
      out += `✗ ${name}: ${plural(counted, 'problem')}\n`;
    }
    for (const issue of errors) out += `  ${issue.path}: ${issue.message}\n`;
    for (const issue of warnings) out += `  ${issue.path}: warning: ${issue.message}\n`;
  }
  return out;
}

/**
 * The `--format json` form: `{ valid, kind, strict, files: [{ file, valid, issues, warnings }] }`,
 * `issues` and `warnings` as `{ path, message }` (plus `code` and `line`/`column` when known).
 *
 * @example
 * JSON.parse(formatJson(reports, 'details', false)).valid;
 */
export function formatJson(
  reports: readonly CliFileReport[],
  kind: string,
  strict: boolean,
): string {
  const finding = (issue: CliFinding) => ({
    path: issue.path,
    message: issue.message,
    ...(issue.code === undefined ? {} : { code: issue.code }),
    ...(issue.segments === undefined ? {} : { segments: issue.segments }),
    ...(issue.location === undefined ? {} : issue.location),
  });
  const files = reports.map((report) => ({
    file: report.file,
    valid: report.valid,
    issues: report.errors.map(finding),
    warnings: report.warnings.map(finding),
  }));
  const valid = reports.every((report) => report.valid);
  return `${JSON.stringify({ valid, kind, strict, files }, null, 2)}\n`;
}

/**
 * The `--format junit` form: one `<testcase>` per file, a `<failure>` per invalid file (an
 * `<error>` when it could not be read), warnings in `<system-out>`; CI servers render it as tests.
 *
 * @example
 * formatJunit(reports, 'details'); // '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites …'
 */
export function formatJunit(reports: readonly CliFileReport[], kind: string): string {
  const failures = reports.filter((report) => !report.valid && !report.unreadable).length;
  const errors = reports.filter((report) => report.unreadable).length;
  const lines = (findings: readonly CliFinding[], prefix = '') =>
    findings.map((issue) => `${where(issue)}${issue.path}: ${prefix}${issue.message}`).join('\n');
  const cases = reports.map((report) => {
    const name = xml(displayName(report.file));
    const body: string[] = [];
    if (report.unreadable) {
      body.push(
        `      <error message="${xml(report.errors[0]?.message ?? 'unreadable')}" type="unreadable"/>`,
      );
    } else if (!report.valid) {
      const problems = report.errors.length > 0 ? report.errors : report.warnings;
      body.push(
        `      <failure message="${xml(plural(problems.length, 'problem'))}" type="invalid">${xml(lines(problems))}</failure>`,
      );
    }
    if (report.valid && report.warnings.length > 0) {
      body.push(`      <system-out>${xml(lines(report.warnings, 'warning: '))}</system-out>`);
    }
    const open = `    <testcase classname="dcg-contract.${xml(kind)}" name="${name}" file="${name}"`;
    return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
  });
  const counts = `tests="${reports.length}" failures="${failures}" errors="${errors}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="dcg-contract" ${counts}>`,
    `  <testsuite name="dcg-contract validate --kind ${xml(kind)}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * GitHub Actions workflow commands (`::error file=…,line=…::…`), one per finding, so that each
 * problem shows on its line of the pull request.
 *
 * @example
 * githubAnnotations(reports, false); // '::error file=a.json,line=3,col=5,title=dcg-contract::…\n'
 */
export function githubAnnotations(reports: readonly CliFileReport[], strict: boolean): string {
  let out = '';
  for (const report of reports) {
    const emit = (level: 'error' | 'warning', issue: CliFinding) => {
      const properties = [
        ...(report.file === '-' ? [] : [`file=${property(report.file)}`]),
        ...(issue.location ? [`line=${issue.location.line}`, `col=${issue.location.column}`] : []),
        `title=${property(`dcg-contract ${issue.path}`)}`,
      ];
      out += `::${level} ${properties.join(',')}::${data(issue.message)}\n`;
    };
    for (const issue of report.errors) emit('error', issue);
    for (const issue of report.warnings) emit(strict ? 'error' : 'warning', issue);
  }
  return out;
}

function where(issue: CliFinding): string {
  return issue.location ? `line ${issue.location.line}, column ${issue.location.column}: ` : '';
}

// XML 1.0 forbids control characters other than tab, line feed and carriage return.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what this removes
const forbiddenInXml = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

function xml(text: string): string {
  return text
    .replace(forbiddenInXml, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

// Escapes of the workflow command syntax (the runner decodes them back).
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
