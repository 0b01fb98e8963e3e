import type { EvaluationResultSubmission, ValidationRecord } from '@dcg/contract-schema';
import { z } from 'zod';
import { GuardianSdkError } from './guardian-sdk-error';
import { buildSubmission, requirement, section } from './result-builder';

const ResultSchema = z.string().transform((s) => s.toLowerCase());
// datacontract-cli writes `null` for a check registered before the run stopped (its "stub"), and
// for a run whose result was never computed.
const NullableResultSchema = ResultSchema.nullable();

/**
 * The fields of a datacontract-cli test run (`datacontract test --output-format json`) that the
 * converter reads; everything else is ignored.
 *
 * @example
 * DatacontractCliRunSchema.parse({ result: 'passed', checks: [] });
 */
export const DatacontractCliRunSchema = z.looseObject({
  result: NullableResultSchema,
  dataContractId: z.string().nullish(),
  checks: z
    .array(
      z.looseObject({
        key: z.string().nullish(),
        category: z.string().nullish(),
        type: z.string().nullish(),
        name: z.string().nullish(),
        model: z.string().nullish(),
        field: z.string().nullish(),
        result: NullableResultSchema,
        reason: z.string().nullish(),
      }),
    )
    .max(100_000)
    .nullish(),
});
/** A value that DatacontractCliRunSchema accepts. */
export type DatacontractCliRun = z.infer<typeof DatacontractCliRunSchema>;

/** Outcome of {@link convertDatacontractCliRun}. */
export interface DatacontractCliConversion {
  /**
   * `could_not_run` when the run gave no verdict: a check has no result (the run stopped before
   * it, e.g. the database could not be reached), or the run failed before reading the contract
   * (`dataContractId` is null) or errored before any check. Such a body is not to be submitted.
   */
  outcome: 'compliant' | 'violated' | 'could_not_run';
  /** For `could_not_run`: why, from the run's failing checks. */
  reason?: string;
  body: EvaluationResultSubmission;
  passed: number;
  failed: number;
  warnings: number;
  skipped: number;
  /** Checks without a result (never run). */
  notRun: number;
}

const FAILING = new Set(['failed', 'error']);

function uniqueKey(wanted: string, used: Set<string>): string {
  let key = wanted || 'check';
  for (let n = 2; used.has(key); n++) key = `${wanted}_${n}`;
  used.add(key);
  return key;
}

/**
 * Converts a datacontract-cli test run into an A3 submission: one section per model, in it one
 * per category, one requirement per check. `passed` is compliant; `failed` and `error` are
 * violated with the reason; `warning`, `skipped` and other results are shown (compliant, with
 * the reason as an issue) and not counted as failures. A check whose `result` is null never ran:
 * the conversion's `outcome` is then `could_not_run` (see {@link DatacontractCliConversion}), and
 * the body, where such checks show as not run, is not to be submitted. Throws `GuardianSdkError`
 * `invalid_argument` (with the JSON paths) for a document that is not a test run.
 *
 * @example
 * const { body } = convertDatacontractCliRun(JSON.parse(text), { resourceId: 'urn:dmb:cmp:finance:orders:0:orders-port' });
 */
export function convertDatacontractCliRun(
  run: unknown,
  options: { resourceId: string; displayName?: string },
): DatacontractCliConversion {
  const parsed = DatacontractCliRunSchema.safeParse(run);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path, message: i.message }));
    throw new GuardianSdkError(
      'invalid_argument',
      `not a datacontract-cli test run: ${issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')}`,
      { problem: { issues } },
    );
  }
  const models = new Map<string, Map<string, ValidationRecord[]>>();
  const used = new Map<string, Set<string>>();
  const counts = { passed: 0, failed: 0, warnings: 0, skipped: 0, notRun: 0 };
  const checks = parsed.data.checks ?? [];
  const failures: string[] = [];
  for (const check of checks) {
    const model = check.model || 'contract';
    const category = check.category || check.type || 'checks';
    const categories = models.get(model) ?? new Map<string, ValidationRecord[]>();
    models.set(model, categories);
    const list = categories.get(category) ?? [];
    categories.set(category, list);
    const scope = `${model}\u0000${category}`;
    const keys = used.get(scope) ?? new Set<string>();
    used.set(scope, keys);
    const key = uniqueKey(check.key || [check.type, check.field].filter(Boolean).join('_'), keys);
    const name = check.name ?? key;
    const built = requirement(key, name, check.field ? `field ${check.field}` : undefined);
    const reason = check.reason ?? '';
    if (check.result === null || check.result === undefined) {
      counts.notRun++;
      list.push(built.violated('not run: the run stopped before this check'));
    } else if (check.result === 'passed') {
      counts.passed++;
      list.push(built.compliant());
    } else if (FAILING.has(check.result)) {
      counts.failed++;
      failures.push(`${check.name ?? key}: ${reason || check.result}`);
      list.push(built.violated(reason || `${check.result} (no reason given)`));
    } else {
      if (check.result === 'warning') counts.warnings++;
      else counts.skipped++;
      list.push({
        ...built.compliant(),
        issues: [`${check.result}${reason ? `: ${reason}` : ''}`],
      });
    }
  }
  const root = [...models].map(([model, categories]) =>
    section(
      model,
      model,
      [...categories].map(([category, records]) => section(category, category, records)),
    ),
  );
  // A run that failed as a whole (e.g. `error` before any check) is a violation too.
  const runResult = parsed.data.result ?? 'unknown';
  const runFailed = FAILING.has(runResult);
  const body = buildSubmission({
    resource: {
      id: options.resourceId,
      ...(options.displayName === undefined ? {} : { displayName: options.displayName }),
    },
    results: {
      root:
        root.length > 0
          ? root
          : [
              runFailed
                ? requirement('datacontract_test', 'datacontract test').violated(
                    `the run result is ${runResult}`,
                  )
                : requirement('datacontract_test', 'datacontract test').compliant(),
            ],
    },
    ...(runFailed && counts.failed === 0 ? { satisfiesPolicy: false } : {}),
  });
  // No verdict: checks that never ran, a contract that was never read, an error before any check.
  const neverRead = parsed.data.dataContractId === null && runFailed;
  const erroredEmpty = runResult === 'error' && counts.passed + counts.failed === 0;
  if (counts.notRun > 0 || neverRead || erroredEmpty) {
    const why =
      counts.notRun > 0
        ? `${counts.notRun} of ${checks.length} checks have no result`
        : neverRead
          ? 'the data contract was never read (dataContractId is null)'
          : 'the run errored before any check';
    const detail = failures.length > 0 ? `: ${failures.slice(0, 3).join('; ')}` : '';
    return { outcome: 'could_not_run', reason: `${why}${detail}`, body, ...counts };
  }
  return { outcome: body[0]?.result.satisfiesPolicy ? 'compliant' : 'violated', body, ...counts };
}
