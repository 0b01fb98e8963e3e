import type { PathSegment } from './document-limits';

/** What {@link describeDetailsIssue} reads of an issue (a `ValidationIssue`, or one as JSON). */
export interface DetailsIssueLike {
  code: string;
  segments: ReadonlyArray<PathSegment>;
  message: string;
  /** The values the sentence is told from (see `ValidationIssue.params`). */
  params?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A schema error of result details (A4) told for people: where, in the words of the records
 * (`root › record 1 › record 3`), and what is wrong, as a sentence.
 *
 * @example
 * const told: DetailsIssueSentence = { location: 'root › record 1', sentence: '“key” is missing: it must be text.' };
 */
export interface DetailsIssueSentence {
  /** Where, relative to the details; `the details` for the details themselves. */
  location: string;
  /** What is wrong, a full sentence without markup or JSONPath. */
  sentence: string;
}

// Where a submitted body (`[0].result.details`) or a stored result (`result.details`) holds them.
const DETAILS_PREFIXES: ReadonlyArray<ReadonlyArray<PathSegment>> = [
  [0, 'result', 'details'],
  ['result', 'details'],
];

const FIELD_WORDS: Readonly<Record<string, string>> = {
  results: 'results',
  notes: 'notes',
  errorSummary: 'error summary',
  children: 'sub-records',
  issues: 'issues',
};

// zod's type names (as this package words its messages) in the words of a sentence.
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'text',
  boolean: 'true or false',
  number: 'a number',
  int: 'a whole number',
  array: 'a list',
  record: 'an object',
  object: 'an object',
  null: 'null',
  undefined: 'nothing',
};

function relativeToDetails(segments: ReadonlyArray<PathSegment>): PathSegment[] {
  for (const prefix of DETAILS_PREFIXES) {
    if (prefix.every((segment, index) => segments[index] === segment)) {
      return segments.slice(prefix.length);
    }
  }
  return [...segments];
}

const quoted = (name: string) => `“${name}”`;
const typeWords = (type: unknown) => TYPE_WORDS[String(type)] ?? String(type);

/** One step of the location: a target, a record, an issue, or a field. */
function stepWords(segments: ReadonlyArray<PathSegment>, index: number): string {
  const segment = segments[index]!;
  const parent = segments[index - 1];
  if (typeof segment === 'number') {
    if (parent === 'issues') return `issue ${segment + 1}`;
    return `record ${segment + 1}`;
  }
  // The key under `results` is the target: `root` or a subcomponent URN.
  if (index === 1 && parent === 'results') return segment;
  return FIELD_WORDS[segment] ?? quoted(segment);
}

function locationWords(segments: ReadonlyArray<PathSegment>): string {
  const steps: string[] = [];
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index];
    // `results` before a target and `children` before an index are implied by the words after them.
    if (index === 0 && segment === 'results' && segments.length > 1) continue;
    if ((segment === 'children' || segment === 'issues') && typeof segments[index + 1] === 'number')
      continue;
    steps.push(stepWords(segments, index));
  }
  return steps.length === 0 ? 'the details' : steps.join(' › ');
}

/** The subject of the sentence: the field or entry the issue is about. */
function subjectWords(segments: ReadonlyArray<PathSegment>): string {
  if (segments.length === 0) return 'The details';
  const words = stepWords(segments, segments.length - 1);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function asSentence(text: string): string {
  const plain = text.replaceAll(/`([^`]*)`/g, '“$1”').trim();
  const capital = plain.charAt(0).toUpperCase() + plain.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function sentenceOf(issue: DetailsIssueLike, subject: string): string {
  const params = issue.params ?? {};
  switch (issue.code) {
    case 'compliant_xor_children':
      if (params.has === 'both') {
        return 'This record has both a verdict (“compliant”) and sub-records (“children”): a record is either a requirement or a section, never both.';
      }
      if (params.has === 'neither') {
        return 'This record has neither a verdict (“compliant”) nor sub-records (“children”): a record is either a requirement or a section.';
      }
      return 'A record must have exactly one of a verdict (“compliant”) and sub-records (“children”).';
    case 'issues_without_compliant':
      return 'This record lists issues but has no verdict: only a requirement (a record with “compliant”) may list issues.';
    case 'invalid_type': {
      const { expected, received } = params;
      if (expected === 'never') return `${subject} is not allowed here.`;
      if (expected !== undefined && received === 'undefined') {
        return `${subject} is missing: it must be ${typeWords(expected)}.`;
      }
      if (expected !== undefined && received !== undefined) {
        return `${subject} must be ${typeWords(expected)}, not ${typeWords(received)}.`;
      }
      return asSentence(`${subject} ${issue.message}`);
    }
    case 'too_deep':
      return typeof params.maxDepth === 'number'
        ? `${subject} is nested deeper than ${params.maxDepth} levels.`
        : asSentence(`${subject} ${issue.message}`);
    default:
      return asSentence(issue.message);
  }
}

/**
 * A schema error of result details as a sentence for people, located relative to the details
 * (issues of a submitted body, `[0, 'result', 'details', …]`, or of a stored result are both
 * understood). Reads the issue's `code`, `params` and `segments`, never its message (an issue without the
 * values it needs is told in general words, with its message as written); no JSONPath and no
 * backticks in the answer.
 *
 * @example
 * describeDetailsIssue(validationIssue('invalid_type', [0, 'result', 'details', 'results', 'root', 0, 'key'],
 *   'is required (expected string)', { expected: 'string', received: 'undefined' }));
 * // { location: 'root › record 1', sentence: '“key” is missing: it must be text.' }
 */
export function describeDetailsIssue(issue: DetailsIssueLike): DetailsIssueSentence {
  const segments = relativeToDetails(issue.segments);
  const last = segments.at(-1);
  // A field or an issue entry is named in the sentence; the location is the record that holds it.
  const inRecord =
    (typeof last === 'string' && segments.length > 2) ||
    (typeof last === 'number' && segments.at(-2) === 'issues');
  const where = inRecord ? segments.slice(0, segments.at(-2) === 'issues' ? -2 : -1) : segments;
  return {
    location: locationWords(where),
    sentence: sentenceOf(issue, subjectWords(segments)),
  };
}
