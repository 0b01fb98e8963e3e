import { z } from 'zod';

/** One validation record of A4: a requirement (`compliant`) or a section (`children`). */
export interface ValidationRecord {
  key: string;
  name?: string | undefined;
  description?: string | undefined;
  compliant?: boolean | undefined;
  issues?: string[] | undefined;
  children?: ValidationRecord[] | undefined;
  [field: string]: unknown;
}

/**
 * Rule 1 of A4, as the message zod reports.
 *
 * @example
 * issues.some((issue) => issue.message === EXACTLY_ONE_MESSAGE_BOTH);
 */
export const EXACTLY_ONE_MESSAGE_BOTH =
  'a validation record has exactly one of `compliant` and `children`: it has both';
/**
 * Rule 1 of A4, as the message zod reports.
 *
 * @example
 * issues.some((issue) => issue.message === EXACTLY_ONE_MESSAGE_NEITHER);
 */
export const EXACTLY_ONE_MESSAGE_NEITHER =
  'a validation record has exactly one of `compliant` and `children`: it has neither';
/**
 * Rule 2 of A4, as the message zod reports.
 *
 * @example
 * issues.some((issue) => issue.message === ISSUES_WITHOUT_COMPLIANT_MESSAGE);
 */
export const ISSUES_WITHOUT_COMPLIANT_MESSAGE =
  '`issues` is allowed only together with `compliant`';

/** The fields of a validation record other than `children`. */
const RECORD_FIELDS = {
  key: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  compliant: z.boolean().optional(),
  issues: z.array(z.string()).optional(),
};

/** Rules 1 and 2 of A4 as a zod check; a presence test, cheap enough to run on every record. */
function checkRecordRules(ctx: z.core.ParsePayload<ValidationRecord>): void {
  const record = ctx.value;
  const hasCompliant = record.compliant !== undefined;
  const hasChildren = record.children !== undefined;
  if (hasCompliant === hasChildren) {
    ctx.issues.push({
      code: 'custom',
      params: { code: 'compliant_xor_children', has: hasCompliant ? 'both' : 'neither' },
      input: record,
      message: hasCompliant ? EXACTLY_ONE_MESSAGE_BOTH : EXACTLY_ONE_MESSAGE_NEITHER,
    });
  } else if (record.issues !== undefined && !hasCompliant) {
    ctx.issues.push({
      code: 'custom',
      params: { code: 'issues_without_compliant' },
      input: record.issues,
      path: ['issues'],
      message: ISSUES_WITHOUT_COMPLIANT_MESSAGE,
    });
  }
}

/**
 * A validation record (A4), recursive through `children`. Rules 1 and 2 are checked by zod and,
 * through `oneOf`/`dependencies` in the metadata, stated in the generated draft-07 JSON Schema
 * too (a single object with a cheap presence check parses about twice as fast as a union).
 *
 * @example
 * ValidationRecordSchema.parse({
 *   key: 'quality',
 *   children: [{ key: 'id_unique', compliant: false, issues: ['3 duplicated ids'] }],
 * });
 */
export const ValidationRecordSchema: z.ZodType<ValidationRecord> = z
  .looseObject({
    ...RECORD_FIELDS,
    get children() {
      return z.array(ValidationRecordSchema).optional();
    },
  })
  .check(checkRecordRules)
  .meta({
    id: 'ValidationRecord',
    title: 'ValidationRecord',
    // Rules 1 and 2 of A4 in draft-07 terms, so that any JSON Schema validator enforces them.
    oneOf: [{ required: ['compliant'] }, { required: ['children'] }],
    dependencies: { issues: ['compliant'] },
  });

/**
 * The same record shape unrolled to `depth` levels of `children` (none below), for zod's
 * compiler, which refuses recursive schemas. Used only as a fast path: whatever it rejects is
 * validated again by {@link ValidationRecordSchema}.
 *
 * @example
 * const shallow = unrolledValidationRecordSchema(2);
 */
export function unrolledValidationRecordSchema(depth: number): z.ZodType<ValidationRecord> {
  const children =
    depth <= 0
      ? z.never().optional()
      : z.array(unrolledValidationRecordSchema(depth - 1)).optional();
  return z.looseObject({ ...RECORD_FIELDS, children }).check(checkRecordRules);
}

/**
 * `notes.errorSummary` of the details: a display message that summarises the issues.
 *
 * @example
 * ErrorSummarySchema.parse({ message: 'One or more data contract violations detected' });
 */
export const ErrorSummarySchema = z
  .looseObject({ message: z.string().optional() })
  .meta({ title: 'ErrorSummary' });
/** A value that ErrorSummarySchema accepts (its parsed output). */
export type ErrorSummary = z.infer<typeof ErrorSummarySchema>;

const NotesSchema = z.looseObject({ errorSummary: ErrorSummarySchema.optional() });

/**
 * The fields of A4 details around a given record schema (the recursive one, or an unrolled one).
 *
 * @example
 * z.looseObject(resultDetailsShape(ValidationRecordSchema));
 */
export function resultDetailsShape(record: z.ZodType<ValidationRecord>) {
  return {
    results: z.record(z.string(), z.array(record)),
    notes: NotesSchema.optional(),
  };
}

/**
 * `result.details` of an evaluation result (A4): validation records per target key (`root` or a
 * subcomponent URN) and optional notes.
 *
 * @example
 * ResultDetailsSchema.parse({
 *   results: { root: [{ key: 'schema', compliant: true }] },
 *   notes: { errorSummary: { message: 'All good' } },
 * });
 */
export const ResultDetailsSchema = z
  .looseObject(resultDetailsShape(ValidationRecordSchema))
  .meta({ title: 'ResultDetails' });
/** A value that ResultDetailsSchema accepts (its parsed output). */
export type ResultDetails = z.infer<typeof ResultDetailsSchema>;
