import type { SystemDescriptor } from './descriptor';
import { didYouMean } from './did-you-mean';
import { selectContractTargets } from './target-selection';

/** What {@link lintDescriptor} can find in a descriptor that the schema accepts. */
export type DescriptorFindingCode =
  | 'NOT_A_SYSTEM_DESCRIPTOR'
  | 'UNKNOWN_KEY'
  | 'NOT_A_URN'
  | 'NO_DATA_CONTRACT';

/**
 * One finding: an `error` makes the descriptor invalid; a `warning` does so only under
 * `--strict`. `path` is a JSONPath such as `$.components[0].compnents`.
 */
export interface DescriptorFinding {
  code: DescriptorFindingCode;
  severity: 'error' | 'warning';
  path: string;
  message: string;
}

// Fields of a system and of a component, from the spec (A2) and from the descriptors of the
// platform the spec comes from (Witboost): descriptors carry them, so they are not typos.
const SYSTEM_KEYS = new Set([
  'id',
  'name',
  'fullyQualifiedName',
  'description',
  'kind',
  'domain',
  'version',
  'environment',
  'dataProductOwner',
  'dataProductOwnerDisplayName',
  'devGroup',
  'ownerGroup',
  'email',
  'informationSLA',
  'status',
  'maturity',
  'billing',
  'tags',
  'specific',
  'components',
  'info',
  'useCaseTemplateId',
  'infrastructureTemplateId',
]);
const COMPONENT_KEYS = new Set([
  'id',
  'name',
  'fullyQualifiedName',
  'description',
  'kind',
  'version',
  'consumable',
  'shoppable',
  'infrastructureTemplateId',
  'useCaseTemplateId',
  'dependsOn',
  'platform',
  'technology',
  'outputPortType',
  'workloadType',
  'connectionType',
  'readsFrom',
  'creationDate',
  'startDate',
  'processDescription',
  'dataContract',
  'dataSharingAgreement',
  'tags',
  'sampleData',
  'semanticLinking',
  'specific',
  'components',
  'info',
  '__dataContractEnabled',
  '__dataContractGuardianSpec',
]);

/**
 * What the schema cannot say about a system descriptor (A2) that it accepts, because unknown
 * fields are allowed: an Open Data Contract Standard document given instead of a descriptor
 * (error), keys that no descriptor has (warnings, with the known key they look like), ids that
 * are not URNs (warnings), and a
 * descriptor without any data contract, so that a guardian would monitor nothing (warning).
 *
 * @example
 * lintDescriptor({ id: 'urn:dmb:dp:a:b:0', kind: 'dataproduct', compnents: [] });
 * // [{ code: 'UNKNOWN_KEY', path: '$.compnents', message: 'unknown key "compnents" (did you mean "components"?)', … }, …]
 */
export function lintDescriptor(descriptor: SystemDescriptor): DescriptorFinding[] {
  const raw = descriptor as Record<string, unknown>;
  if (typeof raw.apiVersion === 'string' && /^datacontract$/i.test(descriptor.kind)) {
    return [
      {
        code: 'NOT_A_SYSTEM_DESCRIPTOR',
        severity: 'error',
        path: '$',
        message: `an Open Data Contract Standard document (kind ${descriptor.kind}, apiVersion ${raw.apiVersion}), not a system descriptor: a system has components, one of them with __dataContractEnabled: true and the contract in its dataContract`,
      },
    ];
  }
  const findings: DescriptorFinding[] = [];
  unknownKeys(raw, SYSTEM_KEYS, '$', findings);
  notAUrn(raw.id, '$.id', findings);
  const walk = (components: unknown, path: string) => {
    if (!Array.isArray(components)) return;
    components.forEach((component, index) => {
      if (typeof component !== 'object' || component === null) return;
      const at = `${path}[${index}]`;
      unknownKeys(component as Record<string, unknown>, COMPONENT_KEYS, at, findings);
      notAUrn((component as { id?: unknown }).id, `${at}.id`, findings);
      walk((component as { components?: unknown }).components, `${at}.components`);
    });
  };
  walk(raw.components, '$.components');
  if (selectContractTargets(descriptor).length === 0) {
    const components = descriptor.components?.length ?? 0;
    findings.push({
      code: 'NO_DATA_CONTRACT',
      severity: 'warning',
      path: components === 0 ? '$' : '$.components',
      message:
        components === 0
          ? 'no data contract: the descriptor has no components, so a guardian has nothing to monitor'
          : `no data contract: none of the ${components} components (nor their subcomponents) has __dataContractEnabled: true, so a guardian has nothing to monitor`,
    });
  }
  return findings;
}

function notAUrn(id: unknown, path: string, findings: DescriptorFinding[]): void {
  if (typeof id !== 'string' || /^urn:[a-z0-9][a-z0-9-]{0,31}:\S+$/i.test(id)) return;
  findings.push({
    code: 'NOT_A_URN',
    severity: 'warning',
    path,
    message: `id ${JSON.stringify(id)} is not a URN (such as urn:dmb:dp:finance:invoices:0)`,
  });
}

function unknownKeys(
  value: Record<string, unknown>,
  known: ReadonlySet<string>,
  path: string,
  findings: DescriptorFinding[],
): void {
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    const near = didYouMean(key, known);
    findings.push({
      code: 'UNKNOWN_KEY',
      severity: 'warning',
      path: /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`,
      message: `unknown key "${key}"${near ? ` (did you mean "${near}"?)` : ''}`,
    });
  }
}
