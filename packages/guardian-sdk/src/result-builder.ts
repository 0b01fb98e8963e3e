import {
  type EvaluationResultSubmission,
  requirementVerdict,
  type ValidationRecord,
  validateSubmission,
} from '@dcg/contract-schema';
import { GuardianSdkError } from './guardian-sdk-error';

/** A requirement being built: say whether it holds. */
export interface RequirementBuilder {
  /** The requirement holds. */
  compliant(): ValidationRecord;
  /** The requirement is violated; each issue is a sentence a person can act on. */
  violated(issues: string | ReadonlyArray<string>): ValidationRecord;
  /** Compliant when `issues` is empty, violated with them otherwise. */
  check(issues: ReadonlyArray<string>): ValidationRecord;
  /**
   * The requirement was not checked (A4 rule 5: it is still reported): `compliant: false`,
   * `checked: false` and the reason as its issue. It does not make `satisfiesPolicy` false.
   */
  notChecked(reason: string): ValidationRecord;
}

/** Options of {@link requirement}. */
export interface RequirementOptions {
  /**
   * The rule's severity (ODCS `severity`), kept on the record. A failing requirement of a
   * non-blocking severity (`info`, `warning`, `warn`) does not make `satisfiesPolicy` false.
   */
  severity?: string | undefined;
}

function named(key: string, name: string | undefined, description: string | undefined) {
  if (typeof key !== 'string' || key === '') {
    throw new GuardianSdkError('invalid_result', 'a validation record needs a non-empty key');
  }
  return {
    key,
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
  };
}

/**
 * A requirement of the contract (an A4 record with `compliant`).
 *
 * @example
 * requirement('amount_not_null', 'amount is never null').violated('12 rows have a null amount');
 */
export function requirement(
  key: string,
  name?: string,
  description?: string,
  options: RequirementOptions = {},
): RequirementBuilder {
  const base = {
    ...named(key, name, description),
    ...(options.severity === undefined ? {} : { severity: options.severity }),
  };
  const violated = (issues: string | ReadonlyArray<string>): ValidationRecord => {
    const list = typeof issues === 'string' ? [issues] : [...issues];
    return { ...base, compliant: false, issues: list.length > 0 ? list : ['violated'] };
  };
  return {
    compliant: () => ({ ...base, compliant: true }),
    violated,
    check: (issues) => (issues.length === 0 ? { ...base, compliant: true } : violated(issues)),
    notChecked: (reason) => ({
      ...base,
      compliant: false,
      checked: false,
      issues: [`not checked: ${reason}`],
    }),
  };
}

/**
 * A section grouping records (an A4 record with `children`).
 *
 * @example
 * section('schema', 'Schema', [requirement('id', 'id exists').compliant()]);
 */
export function section(
  key: string,
  name: string | undefined,
  children: ReadonlyArray<ValidationRecord>,
  description?: string,
): ValidationRecord {
  return { ...named(key, name, description), children: [...children] };
}

/**
 * Every requirement (leaf) of some records, depth first.
 *
 * @example
 * requirementsOf([section('schema', 'Schema', [requirement('id').compliant()])]); // [{ key: 'id', compliant: true }]
 */
export function requirementsOf(records: ReadonlyArray<ValidationRecord>): ValidationRecord[] {
  const out: ValidationRecord[] = [];
  const walk = (list: ReadonlyArray<ValidationRecord>) => {
    for (const record of list) {
      if (record.children !== undefined) walk(record.children);
      else out.push(record);
    }
  };
  walk(records);
  return out;
}

/**
 * Whether a failing requirement makes the policy unsatisfied: it was checked (`checked` is not
 * `false`) and its `severity`, if any, blocks; the verdict the views count as failing
 * (`requirementVerdict` of `@dcg/contract-schema`).
 *
 * @example
 * blocks({ key: 'a', compliant: false, severity: 'warning' }); // false
 */
export function blocks(record: ValidationRecord): boolean {
  return record.compliant === false && requirementVerdict(record) === 'failing';
}

/**
 * The section that reports a contract's rules no check ran (A4 rule 5), one requirement not
 * checked each, with the reason; `undefined` when there are none. The PostgreSQL check adds it;
 * a guardian with checks of its own adds it to their records.
 *
 * @example
 * const records = [...mine, ...[notCheckedSection(contract.unchecked)].filter((s) => s !== undefined)];
 */
export function notCheckedSection(
  unchecked: ReadonlyArray<{ key: string; name: string; reason: string }>,
): ValidationRecord | undefined {
  if (unchecked.length === 0) return undefined;
  return section(
    'not_checked',
    'Not checked',
    unchecked.map((rule) => requirement(rule.key, rule.name).notChecked(rule.reason)),
  );
}

/** A4: keys are unique among siblings; every record is an object (a check returned something). */
function checkRecords(results: Record<string, ReadonlyArray<ValidationRecord>>): void {
  const problems: string[] = [];
  const walk = (list: ReadonlyArray<unknown>, at: string) => {
    if (!Array.isArray(list)) {
      problems.push(`${at} is not an array of validation records`);
      return;
    }
    const seen = new Set<string>();
    list.forEach((record, index) => {
      const here = `${at}[${index}]`;
      if (typeof record !== 'object' || record === null) {
        problems.push(
          `${here} is ${record === null ? 'null' : typeof record}, not a validation record: a check returned nothing (return requirement(...) or section(...) records)`,
        );
        return;
      }
      const { key, children } = record as ValidationRecord;
      if (typeof key === 'string') {
        if (seen.has(key))
          problems.push(
            `${here}: the key "${key}" is used twice among its siblings (A4: a key is unique)`,
          );
        seen.add(key);
      }
      if (children !== undefined) walk(children, `${here}.children`);
    });
  };
  for (const [target, records] of Object.entries(results)) walk(records, `results.${target}`);
  if (problems.length > 0) {
    throw new GuardianSdkError(
      'invalid_result',
      `the evaluation result is not valid: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
      { problem: { issues: problems.map((message) => ({ message })) } },
    );
  }
}

/** What {@link buildSubmission} needs. */
export interface SubmissionInput {
  /** The data contract: `resource.id` (its URN) and an optional display name. */
  resource: { id: string; displayName?: string | undefined; descriptor?: string | undefined };
  /** Records per target key (`root`, or a subcomponent URN: see A5). */
  results: Record<string, ReadonlyArray<ValidationRecord>>;
  /** Default: true when no requirement blocks (see {@link blocks}). */
  satisfiesPolicy?: boolean | undefined;
  /** Default: generated from the failing requirements when the policy is not satisfied. */
  errorSummary?: string | undefined;
  errors?: unknown[] | undefined;
}

const MAX_SUMMARY_ITEMS = 5;

function summaryOf(failing: ValidationRecord[]): string {
  const lines = failing.slice(0, MAX_SUMMARY_ITEMS).map((record) => {
    const first = record.issues?.[0];
    return `${record.name ?? record.key}${first ? `: ${first}` : ''}`;
  });
  const more =
    failing.length > MAX_SUMMARY_ITEMS ? `; and ${failing.length - MAX_SUMMARY_ITEMS} more` : '';
  return `${failing.length} data contract requirement${failing.length === 1 ? '' : 's'} violated: ${lines.join('; ')}${more}`;
}

/**
 * The A3 submission body (an array of one result) from the records of a run. `satisfiesPolicy`
 * is derived from the requirements unless set (a requirement not checked, or failing with a
 * non-blocking severity, does not make it false), keys must be unique among siblings, `notes.errorSummary` is generated from the
 * failing ones unless set, and the body is validated with `@dcg/contract-schema` before it is
 * returned (`GuardianSdkError` `invalid_result` with the issues otherwise).
 *
 * @example
 * const body = buildSubmission({
 *   resource: { id: 'urn:dmb:cmp:finance:orders:0:orders-port' },
 *   results: { root: [section('quality', 'Quality', [requirement('id_unique').compliant()])] },
 * });
 */
export function buildSubmission(input: SubmissionInput): EvaluationResultSubmission {
  checkRecords(input.results);
  const all = Object.values(input.results).flatMap((records) => requirementsOf(records));
  const failing = all.filter(blocks);
  const satisfiesPolicy = input.satisfiesPolicy ?? failing.length === 0;
  const message =
    input.errorSummary ??
    (satisfiesPolicy || failing.length === 0 ? undefined : summaryOf(failing));
  const results: Record<string, ValidationRecord[]> = {};
  for (const [key, records] of Object.entries(input.results)) results[key] = [...records];
  const body = [
    {
      resource: {
        id: input.resource.id,
        ...(input.resource.displayName === undefined
          ? {}
          : { displayName: input.resource.displayName }),
        descriptor: input.resource.descriptor ?? '',
      },
      result: {
        satisfiesPolicy,
        errors: input.errors ?? [],
        details: {
          results,
          ...(message === undefined ? {} : { notes: { errorSummary: { message } } }),
        },
      },
    },
  ];
  const validation = validateSubmission(body);
  if (!validation.success) {
    throw new GuardianSdkError(
      'invalid_result',
      `the evaluation result does not conform to A3/A4: ${validation.issues
        .slice(0, 5)
        .map((i) => `${i.path}: ${i.message}`)
        .join('; ')}`,
      { problem: { issues: validation.issues } },
    );
  }
  return validation.data;
}
