import { failingRequirements } from '@dcg/contract-schema';
import type { ContractCompliance } from '@dcg/governance-schema';

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
