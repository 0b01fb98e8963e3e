import {
  type ComponentDescriptor,
  findComponent,
  type GuardEntry,
  type SystemDescriptor,
  selectContractTargets,
} from '@dcg/contract-schema';
import { type ContractIssue, type DataContract, parseDataContract } from './data-contract';

/** One target key of a guarded contract (`root` or a subcomponent URN) and its contract. */
export interface GuardedPart {
  key: string;
  component: ComponentDescriptor;
  contract: DataContract;
}

/** A data contract a guardian monitors: what its evaluation result is about, and its parts (A5). */
export interface GuardedContract {
  /** `resource.id` of the evaluation result. */
  resourceId: string;
  displayName: string | undefined;
  parts: GuardedPart[];
  /** The guard's `monitoringResultScheduling`, as written. */
  scheduling: unknown;
}

/** A problem found in the guardian component or what it guards, with a path in the descriptor. */
export interface GuardIssue extends Omit<ContractIssue, 'code'> {
  code: ContractIssue['code'] | 'unknown_contract' | 'not_a_data_contract' | 'no_guards';
}

/** Outcome of {@link guardedContracts}. */
export type GuardedContracts =
  | {
      success: true;
      data: GuardedContract[];
      /** The rules of the contracts that the built-in checks cannot run, with descriptor paths. */
      warnings: GuardIssue[];
    }
  | { success: false; issues: GuardIssue[] };

function pathOf(system: SystemDescriptor, id: string): (string | number)[] {
  const walk = (
    components: ComponentDescriptor[] | undefined,
    at: (string | number)[],
  ): (string | number)[] | undefined => {
    for (const [index, component] of (components ?? []).entries()) {
      const here = [...at, 'components', index];
      if (component.id === id) return here;
      const nested: (string | number)[] | undefined = walk(component.components, here);
      if (nested) return nested;
    }
    return undefined;
  };
  return walk(system.components, []) ?? [];
}

function fallbackTable(component: ComponentDescriptor): string {
  const last = component.id.split(':').at(-1) ?? '';
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(last) ? last : '';
}

/**
 * The data contracts a guardian component guards (`__dataContractGuardianSpec.guards[]`), each
 * checked to exist in the system and to be a data contract, with its result keys chosen by A5
 * and its `dataContract` read into the contract model. Issues carry paths in the system descriptor.
 *
 * @example
 * const found = guardedContracts(system, guardian);
 * if (found.success) for (const c of found.data) console.log(c.resourceId, c.parts.map((p) => p.key));
 */
export function guardedContracts(
  system: SystemDescriptor,
  guardian: ComponentDescriptor,
): GuardedContracts {
  const guardianPath = pathOf(system, guardian.id);
  const guards: GuardEntry[] = guardian.__dataContractGuardianSpec?.guards ?? [];
  const issues: GuardIssue[] = [];
  if (guards.length === 0) {
    issues.push({
      code: 'no_guards',
      path: [...guardianPath, '__dataContractGuardianSpec', 'guards'],
      message: 'the guardian component guards no data contract',
    });
  }
  const targets = new Map(selectContractTargets(system).map((t) => [t.resourceId, t]));
  const out: GuardedContract[] = [];
  const warnings: GuardIssue[] = [];
  guards.forEach((guard, index) => {
    const at = [...guardianPath, '__dataContractGuardianSpec', 'guards', index, 'dataContractId'];
    const target = targets.get(guard.dataContractId);
    if (target === undefined) {
      const component = findComponent(system, guard.dataContractId);
      issues.push(
        component === undefined
          ? {
              code: 'unknown_contract',
              path: at,
              message: `no component "${guard.dataContractId}" in the system`,
            }
          : {
              code: 'not_a_data_contract',
              path: at,
              message: `the component "${guard.dataContractId}" is not a data contract (__dataContractEnabled is not true)`,
            },
      );
      return;
    }
    const parts: GuardedPart[] = [];
    for (const key of target.resultKeys) {
      const component =
        key === 'root'
          ? target.component
          : (target.component.components ?? []).find((c) => c.id === key);
      if (!component) continue;
      const parsed = parseDataContract(component.dataContract ?? {}, fallbackTable(component));
      const base = [...pathOf(system, component.id), 'dataContract'];
      if (!parsed.success) {
        for (const issue of parsed.issues)
          issues.push({ ...issue, path: [...base, ...issue.path] });
        continue;
      }
      for (const warning of parsed.warnings)
        warnings.push({ ...warning, path: [...base, ...warning.path] });
      parts.push({ key, component, contract: parsed.data });
    }
    out.push({
      resourceId: target.resourceId,
      displayName: target.component.name,
      parts,
      scheduling: guard.monitoringResultScheduling,
    });
  });
  if (issues.length > 0) return { success: false, issues };
  return { success: true, data: out, warnings };
}
