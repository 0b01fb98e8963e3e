import type { ComplianceTreeNode, ContractCompliance } from '@dcg/marketplace-client';

/** One requirement of a data contract that its latest evaluation found failing. */
export interface FailingRequirement {
  /** Keys from the root of the tree to the requirement, e.g. `['orders', 'quality', 'amount_not_null']`. */
  readonly path: readonly string[];
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly issues: readonly string[];
}

/**
 * The failing requirements of a compliance tree: every node with `compliant: false` none of whose
 * descendants is itself failing (the most specific failures), in tree order.
 *
 * @example
 * failingRequirements(compliance.tree); // [{ path: ['orders', 'amount_not_null'], issues: ['12 rows…'] }]
 */
export function failingRequirements(tree: readonly ComplianceTreeNode[]): FailingRequirement[] {
  const out: FailingRequirement[] = [];
  const visit = (node: ComplianceTreeNode, path: string[]): boolean => {
    const here = [...path, node.key];
    let childFailed = false;
    for (const child of node.children ?? []) childFailed = visit(child, here) || childFailed;
    if (node.compliant === false && !childFailed) {
      out.push({
        path: here,
        ...(node.name === undefined ? {} : { name: node.name }),
        ...(node.description === undefined ? {} : { description: node.description }),
        issues: node.issues ?? [],
      });
    }
    return childFailed || node.compliant === false;
  };
  for (const node of tree) visit(node, []);
  return out;
}

/**
 * One paragraph that says where a contract stands, for the text content of a tool answer and for
 * prompts.
 *
 * @example
 * describeCompliance(compliance); // 'violated in production: 1 failing, 1 compliant (…)'
 */
export function describeCompliance(compliance: ContractCompliance): string {
  const where = `${compliance.contractId} in ${compliance.environment}`;
  switch (compliance.status) {
    case 'unknown':
      return `The compliance of ${where} is unknown: no evaluation result has arrived yet.`;
    case 'unprocessable':
      return `The latest monitoring result of ${where} cannot be processed: ${compliance.message ?? 'its details do not conform'}${
        compliance.schemaErrors?.length
          ? ` (${compliance.schemaErrors
              .slice(0, 3)
              .map((e) => `${e.path}: ${e.message}`)
              .join('; ')})`
          : ''
      }.`;
    default: {
      const failing = failingRequirements(compliance.tree);
      const counts = `${compliance.counts.failing} failing and ${compliance.counts.compliant} compliant requirements`;
      const summary = compliance.summary ? ` Summary: ${compliance.summary}.` : '';
      const list = failing
        .slice(0, 10)
        .map((f) => `- ${f.path.join(' › ')}${f.issues.length ? `: ${f.issues.join('; ')}` : ''}`)
        .join('\n');
      return `${where} is ${compliance.status} (evaluated ${compliance.evaluatedAt ?? 'never'}): ${counts}.${summary}${list ? `\nFailing requirements:\n${list}` : ''}`;
    }
  }
}
