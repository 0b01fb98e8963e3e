import type { ContractComplianceState, InstanceCompliance } from './compliance-wire';
import { isBlockingSeverity } from './severity';

/**
 * Counts of requirements (records with `compliant`): `failing` counts only those that make the
 * contract violated; a requirement not checked (`checked: false`) or failing with a non-blocking
 * severity (`warning`, `info`) is counted apart.
 */
export interface ComplianceCounts {
  compliant: number;
  failing: number;
  /** Requirements the guardian reported as not checked. */
  notChecked?: number;
  /** Failing requirements of a non-blocking severity. */
  warnings?: number;
}

/**
 * The contract states from the most to the least severe: the order the roll-up of an instance
 * follows and the order views list their tallies in.
 *
 * @example
 * COMPLIANCE_SEVERITY_ORDER[0]; // 'violated'
 */
export const COMPLIANCE_SEVERITY_ORDER: readonly ContractComplianceState[] = [
  'violated',
  'unprocessable',
  'unknown',
  'compliant',
];

/**
 * The state of a data contract from its latest result (anything with the result's `status`):
 * `unknown` until a result arrives. The one place that rule is written.
 *
 * @example
 * contractStateOf(undefined); // 'unknown'
 * contractStateOf({ status: 'violated', evaluatedAt: '2026-01-01T00:00:00Z' }); // 'violated'
 */
export function contractStateOf(
  latest: { readonly status: ContractComplianceState } | null | undefined,
): ContractComplianceState {
  return latest?.status ?? 'unknown';
}

/** What {@link contractStatesOf} reads of a component of an instance. */
export interface ContractComponentLike {
  /** Whether the component is a data contract (rule A5). */
  readonly dataContract: boolean;
  /** Its latest state, absent until a result arrives. */
  readonly compliance?: { readonly status: ContractComplianceState } | null | undefined;
}

/**
 * The states of the data contracts among an instance's components, in their order (see
 * {@link contractStateOf}); what {@link instanceCompliance} rolls up.
 *
 * @example
 * instanceCompliance(contractStatesOf(instance.components)); // 'violated'
 */
export function contractStatesOf(
  components: readonly ContractComponentLike[],
): ContractComplianceState[] {
  return components.flatMap((component) =>
    component.dataContract ? [contractStateOf(component.compliance)] : [],
  );
}

/**
 * The roll-up of an instance from the states of its data contracts: the most severe state in
 * {@link COMPLIANCE_SEVERITY_ORDER} (`violated` if any is violated, …), `none` without contracts.
 *
 * @example
 * instanceCompliance(['compliant', 'violated']); // 'violated'
 * instanceCompliance([]); // 'none'
 */
export function instanceCompliance(
  contractStates: readonly ContractComplianceState[],
): InstanceCompliance {
  if (contractStates.length === 0) return 'none';
  return COMPLIANCE_SEVERITY_ORDER.find((state) => contractStates.includes(state)) ?? 'compliant';
}

/**
 * What the tally and the failing list read of a node of a compliance tree: the view tree of
 * `complianceStatus`, or that tree as a client parsed it (extra members are fine).
 */
export interface RequirementNodeLike {
  key: string;
  name?: string | undefined;
  description?: string | undefined;
  compliant?: boolean | undefined;
  issues?: readonly string[] | undefined;
  /** `false` on a requirement the guardian did not check. */
  checked?: unknown;
  /** The requirement's severity (ODCS), when the record carries one. */
  severity?: unknown;
  children?: readonly RequirementNodeLike[] | undefined;
}

/**
 * The verdict of one requirement (a node without `children`): `failing` only when it makes the
 * contract violated; `not_checked` when the guardian says it did not check it; `warning` when it
 * fails with a non-blocking severity (see {@link isBlockingSeverity}).
 *
 * @example
 * requirementVerdict({ key: 'a', compliant: false, severity: 'warning' }); // 'warning'
 */
export type RequirementVerdict = 'compliant' | 'failing' | 'not_checked' | 'warning';

/**
 * The one classification of a requirement, used by the counts of `complianceStatus`, the views
 * and the failing list.
 *
 * @example
 * requirementVerdict({ key: 'a', compliant: false, checked: false }); // 'not_checked'
 */
export function requirementVerdict(node: RequirementNodeLike): RequirementVerdict {
  if (node.compliant === true) return 'compliant';
  if (node.checked === false) return 'not_checked';
  if (!isBlockingSeverity(node.severity)) return 'warning';
  return 'failing';
}

/**
 * Counts one verdict into `counts` (`notChecked` and `warnings` appear once they are non-zero).
 *
 * @example
 * const counts = { compliant: 0, failing: 0 };
 * countVerdict(counts, 'warning'); // counts.warnings === 1
 */
export function countVerdict(counts: ComplianceCounts, verdict: RequirementVerdict): void {
  if (verdict === 'compliant') counts.compliant++;
  else if (verdict === 'failing') counts.failing++;
  else if (verdict === 'not_checked') counts.notChecked = (counts.notChecked ?? 0) + 1;
  else counts.warnings = (counts.warnings ?? 0) + 1;
}

/**
 * The sum of several tallies.
 *
 * @example
 * sumCounts([{ compliant: 1, failing: 0 }, { compliant: 0, failing: 2, warnings: 1 }]);
 * // { compliant: 1, failing: 2, warnings: 1 }
 */
export function sumCounts(all: readonly ComplianceCounts[]): ComplianceCounts {
  const total: ComplianceCounts = { compliant: 0, failing: 0 };
  for (const counts of all) {
    total.compliant += counts.compliant;
    total.failing += counts.failing;
    if (counts.notChecked) total.notChecked = (total.notChecked ?? 0) + counts.notChecked;
    if (counts.warnings) total.warnings = (total.warnings ?? 0) + counts.warnings;
  }
  return total;
}

/**
 * The requirements below the given nodes (the leaves, at any depth), counted by their verdict.
 *
 * @example
 * requirementTally([{ key: 'q', children: [{ key: 'a', compliant: true }, { key: 'b', compliant: false }] }]);
 * // { compliant: 1, failing: 1 }
 */
export function requirementTally(nodes: readonly RequirementNodeLike[]): ComplianceCounts {
  const counts: ComplianceCounts = { compliant: 0, failing: 0 };
  for (const node of requirementsOf(nodes)) countVerdict(counts, requirementVerdict(node));
  return counts;
}

/**
 * The requirements below the given nodes (the leaves, at any depth), in tree order. Walks with an
 * explicit stack, so a deep tree cannot overflow the call stack.
 *
 * @example
 * requirementsOf([{ key: 'q', children: [{ key: 'a', compliant: true }, { key: 'b', compliant: false }] }]);
 * // [{ key: 'a', compliant: true }, { key: 'b', compliant: false }]
 */
export function requirementsOf<
  N extends RequirementNodeLike & { readonly children?: readonly N[] | undefined },
>(nodes: readonly N[]): N[] {
  const out: N[] = [];
  const stack = [...nodes].reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.children === undefined) out.push(node);
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

/** One requirement of a data contract that makes it violated. */
export interface FailingRequirement {
  /** Keys from the top of the tree to the requirement, e.g. `['quality', 'amount_not_null']`. */
  readonly path: readonly string[];
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly issues: readonly string[];
}

/**
 * The requirements whose verdict is `failing` (so as many as `counts.failing`), in tree order,
 * each with the keys that lead to it. Requirements not checked or failing as a warning are not in
 * the list.
 *
 * @example
 * failingRequirements(status.tree.flatMap((target) => target.records));
 * // [{ path: ['quality', 'amount_not_null'], issues: ['12 null rows'] }]
 */
export function failingRequirements(nodes: readonly RequirementNodeLike[]): FailingRequirement[] {
  const out: FailingRequirement[] = [];
  // Each entry links to its parent, so a path is built only for a failing requirement.
  interface Step {
    node: RequirementNodeLike;
    parent: Step | undefined;
  }
  const stack: Step[] = nodes.map((node) => ({ node, parent: undefined })).reverse();
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const { node } = step;
    if (node.children !== undefined) {
      for (let i = node.children.length - 1; i >= 0; i--) {
        stack.push({ node: node.children[i]!, parent: step });
      }
    } else if (requirementVerdict(node) === 'failing') {
      const path: string[] = [];
      for (let at: Step | undefined = step; at !== undefined; at = at.parent)
        path.push(at.node.key);
      out.push({
        path: path.reverse(),
        ...(node.name === undefined ? {} : { name: node.name }),
        ...(node.description === undefined ? {} : { description: node.description }),
        issues: node.issues ?? [],
      });
    }
  }
  return out;
}
