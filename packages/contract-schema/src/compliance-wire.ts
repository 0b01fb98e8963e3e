/**
 * The compliance shapes that travel on the wire (the governance API answers them and its clients
 * check them), written with `zod/mini` and kept in a module of their own, so that a browser client
 * that imports them bundles no classic zod.
 */
import * as z from 'zod/mini';

/**
 * State of a data contract's latest result: `compliant` / `violated` follow `satisfiesPolicy`;
 * `unprocessable`: the `details` break A4 (the result is stored all the same).
 *
 * @example
 * ComplianceStateSchema.parse('violated');
 */
export const ComplianceStateSchema = z
  .enum(['compliant', 'violated', 'unprocessable'])
  .register(z.globalRegistry, { id: 'ComplianceState' });
/** State of a data contract as rendered in the marketplace. */
export type ComplianceState = z.infer<typeof ComplianceStateSchema>;

/**
 * The state of a data contract as the marketplace lists it: a {@link ComplianceState} of its
 * latest result, or `unknown` while no result has arrived.
 *
 * @example
 * ContractComplianceStateSchema.parse('unknown');
 */
export const ContractComplianceStateSchema = z.enum([...ComplianceStateSchema.options, 'unknown']);
/** The state of a data contract, `unknown` without a result. */
export type ContractComplianceState = z.infer<typeof ContractComplianceStateSchema>;

/**
 * The compliance of an instance as a whole (see `instanceCompliance`): a contract state, or
 * `none` for an instance without data contracts.
 *
 * @example
 * InstanceComplianceSchema.parse('none');
 */
export const InstanceComplianceSchema = z.enum([...ContractComplianceStateSchema.options, 'none']);
/** The compliance of an instance as a whole. */
export type InstanceCompliance = z.infer<typeof InstanceComplianceSchema>;

/** A node of the view tree, as {@link ComplianceTreeNodeSchema} describes it. */
export interface ComplianceTreeNode {
  key: string;
  name?: string | undefined;
  description?: string | undefined;
  /** True for a section (a record with `children`), false for a requirement (with `compliant`). */
  section: boolean;
  /** A requirement's verdict; absent on sections. */
  compliant?: boolean | undefined;
  /** A failing requirement's issues, when it reported any. */
  issues?: string[] | undefined;
  /** `false` on a requirement the guardian did not check (it reports why in `issues`). */
  checked?: false | undefined;
  /** The requirement's severity, when the record carries one (see `isBlockingSeverity`). */
  severity?: string | undefined;
  /** A section's records. */
  children?: ComplianceTreeNode[] | undefined;
  /** On the top-level nodes of a view: the `details.results` key they were reported under. */
  target?: string | undefined;
}

/**
 * The view tree of a result's validation records: the one shape the marketplace API answers and its
 * pages render. `section` says what a node is, so no reader has to guess from the fields.
 *
 * @example
 * ComplianceTreeNodeSchema.parse({ key: 'quality', section: true, children: [{ key: 'a', section: false, compliant: true }] });
 */
export const ComplianceTreeNodeSchema: z.ZodMiniType<ComplianceTreeNode> = z
  .object({
    key: z.string(),
    name: z.optional(z.string()),
    description: z.optional(z.string()),
    section: z
      .boolean()
      .check(z.describe('True for a section (has children), false for a requirement')),
    compliant: z
      .optional(z.boolean())
      .check(z.describe("A requirement's verdict; absent on sections")),
    issues: z.optional(z.array(z.string())),
    checked: z
      .optional(z.literal(false))
      .check(z.describe('false on a requirement the guardian did not check (issues say why)')),
    severity: z.optional(z.string()).check(z.describe("The requirement's severity (ODCS)")),
    get children() {
      return z.optional(z.array(ComplianceTreeNodeSchema));
    },
    target: z
      .optional(z.string())
      .check(
        z.describe('Top-level nodes: the `details.results` key (`root` or a subcomponent URN)'),
      ),
  })
  .register(z.globalRegistry, { id: 'ComplianceTreeNode' });

/**
 * A `ValidationIssue` as JSON (the `schemaErrors` of a result whose details break A4).
 *
 * @example
 * ValidationIssueSchema.parse({ code: 'too_deep', segments: ['a'], path: '$.a', message: 'is nested deeper than 2 levels' });
 */
export const ValidationIssueSchema = z
  .object({
    code: z
      .string()
      .check(z.describe('Stable reason, e.g. `invalid_type`, `compliant_xor_children`')),
    segments: z
      .array(z.union([z.string(), z.number()]))
      .check(z.describe('The location as keys and indexes')),
    path: z
      .string()
      .check(z.describe('The location as JSONPath, e.g. `$[0].result.details.results.root[0]`')),
    message: z.string(),
    params: z
      .optional(z.record(z.string(), z.union([z.string(), z.number()])))
      .check(
        z.describe(
          'The values of the issue: `expected`/`received` on `invalid_type`, `has` on `compliant_xor_children`, `maxDepth` on `too_deep`',
        ),
      ),
  })
  .register(z.globalRegistry, { id: 'ValidationIssue' });

/**
 * A result whose verdict (`satisfiesPolicy`) disagrees with its records: `compliant` while some
 * requirement fails (`compliant_despite_failing`), or `violated` while none fails
 * (`violated_without_failing`). The verdict decides the state (A3); this says so for people.
 *
 * @example
 * VerdictOverrideSchema.parse({ code: 'violated_without_failing', message: '…' });
 */
export const VerdictOverrideSchema = z
  .object({
    code: z.enum(['compliant_despite_failing', 'violated_without_failing']),
    message: z.string().check(z.describe('The disagreement as a sentence for people')),
  })
  .register(z.globalRegistry, { id: 'VerdictOverride' });
/** A verdict that overrides the records of its result. */
export type VerdictOverride = z.infer<typeof VerdictOverrideSchema>;
