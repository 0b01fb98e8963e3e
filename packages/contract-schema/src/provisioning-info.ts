import type { ComponentDescriptor } from './descriptor';
import { toJsonPath } from './json-path';

/**
 * Where the passive policy id sits in a component descriptor.
 *
 * @example
 * GUARDIAN_POLICY_ID_PATH.join('.'); // 'info.privateInfo.__dataContractGuardian.policyId'
 */
export const GUARDIAN_POLICY_ID_PATH = [
  'info',
  'privateInfo',
  '__dataContractGuardian',
  'policyId',
] as const;

type PlainObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]))
    );
  }
  return false;
}

/** Every leaf of `input` that `output` lacks or changes (objects compare key by key, arrays whole). */
function lostPaths(input: unknown, output: unknown, at: string[], into: string[]): void {
  if (isPlainObject(input)) {
    if (!isPlainObject(output)) {
      into.push(toJsonPath(at));
      return;
    }
    for (const [key, value] of Object.entries(input)) {
      if (!Object.hasOwn(output, key)) into.push(toJsonPath([...at, key]));
      else lostPaths(value, output[key], [...at, key], into);
    }
    return;
  }
  if (!deepEqual(input, output)) into.push(toJsonPath(at));
}

function hasContent(info: unknown): boolean {
  return isPlainObject(info) ? Object.keys(info).length > 0 : info !== undefined && info !== null;
}

/**
 * The passive policy id of a guardian component (`info.privateInfo.__dataContractGuardian.policyId`).
 *
 * @example
 * getGuardianPolicyId({ id: 'urn:dmb:cmp:a:b:0:g', info: { privateInfo: { __dataContractGuardian: { policyId: 'p1' } } } }); // 'p1'
 */
export function getGuardianPolicyId(component: { info?: unknown }): string | undefined {
  let node: unknown = component;
  for (const key of GUARDIAN_POLICY_ID_PATH) {
    if (!isPlainObject(node)) return undefined;
    node = node[key];
  }
  return typeof node === 'string' && node.length > 0 ? node : undefined;
}

/**
 * A copy of `component` with the passive policy id set; everything else in `info` is kept. The
 * `info` it carries has both `publicInfo` and `privateInfo`, as the tech adapter API requires of
 * an `info` object, so an adapter that answers with the `info` it received answers a valid one.
 *
 * @example
 * const sent = withGuardianPolicyId({ id: 'urn:dmb:cmp:a:b:0:g' }, 'policy-42');
 * // sent.info: { publicInfo: {}, privateInfo: { __dataContractGuardian: { policyId: 'policy-42' } } }
 */
export function withGuardianPolicyId<T extends ComponentDescriptor>(
  component: T,
  policyId: string,
): T {
  const info = isPlainObject(component.info) ? component.info : {};
  const publicInfo = isPlainObject(info.publicInfo) ? info.publicInfo : {};
  const privateInfo = isPlainObject(info.privateInfo) ? info.privateInfo : {};
  const guardian = isPlainObject(privateInfo.__dataContractGuardian)
    ? privateInfo.__dataContractGuardian
    : {};
  return {
    ...component,
    info: {
      ...info,
      publicInfo,
      privateInfo: { ...privateInfo, __dataContractGuardian: { ...guardian, policyId } },
    },
  };
}

/**
 * A copy of `component` whose `info`, when it has one, carries both `publicInfo` and
 * `privateInfo` (empty objects where missing), as the tech adapter API's `Info` requires: an
 * adapter that answers with the `info` it received then answers a valid one. A component without
 * `info` is returned as it is.
 *
 * @example
 * withCompleteInfo({ id: 'urn:dmb:cmp:a:b:0:c', info: { privateInfo: { k: 1 } } }).info;
 * // { privateInfo: { k: 1 }, publicInfo: {} }
 */
export function withCompleteInfo<T extends ComponentDescriptor>(component: T): T {
  const info = component.info;
  if (!isPlainObject(info)) return component;
  if (isPlainObject(info.publicInfo) && isPlainObject(info.privateInfo)) return component;
  return {
    ...component,
    info: {
      ...info,
      publicInfo: isPlainObject(info.publicInfo) ? info.publicInfo : {},
      privateInfo: isPlainObject(info.privateInfo) ? info.privateInfo : {},
    },
  };
}

/**
 * The guardian provisioning response rule: the adapter's `info` is valid when it is `null`, or a
 * superset of the `info` it received (so the policy id is kept). Leaving `info` out while the
 * input had one is invalid.
 *
 * @example
 * const input = { privateInfo: { __dataContractGuardian: { policyId: 'p1' } } };
 * isValidProvisioningInfo(input, null); // true
 * isValidProvisioningInfo(input, { publicInfo: {}, privateInfo: {} }); // false
 */
export function isValidProvisioningInfo(input: unknown, output: unknown): boolean {
  return explainProvisioningInfoViolation(input, output) === undefined;
}

/**
 * Why an adapter's `info` breaks the provisioning response rule, or `undefined` when it does not.
 *
 * @example
 * explainProvisioningInfoViolation({ privateInfo: { __dataContractGuardian: { policyId: 'p1' } } }, undefined);
 * // 'the tech adapter response leaves out `info` without setting it to null: …'
 */
export function explainProvisioningInfoViolation(
  input: unknown,
  output: unknown,
): string | undefined {
  if (output === null || !hasContent(input)) return undefined;
  const policyId = getGuardianPolicyId({ info: input });
  const consequence =
    policyId === undefined
      ? 'the info stored for this component would be lost to other components'
      : `the passive policy id "${policyId}" at info.privateInfo.__dataContractGuardian.policyId would be lost to other components`;
  if (output === undefined) {
    return `the tech adapter response leaves out \`info\` without setting it to null: ${consequence}. Answer info: null, or the input info merged with the values to store.`;
  }
  const lost: string[] = [];
  lostPaths(input, output, [], lost);
  if (lost.length === 0) return undefined;
  return `the tech adapter's \`info\` is not a superset of the input info (missing or changed: ${lost.join(', ')}): ${consequence}. Answer info: null, or the input info merged with the values to store.`;
}

function deepMerge(base: PlainObject, extra: PlainObject): PlainObject {
  const merged: PlainObject = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    merged[key] =
      isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return merged;
}

/**
 * The `info` to store after a guardian provisioning: `null` from the adapter keeps the input;
 * otherwise the adapter's values are merged into the input, and the passive policy id of the
 * input always survives.
 *
 * @example
 * mergeProvisioningInfo(
 *   { privateInfo: { __dataContractGuardian: { policyId: 'p1' } } },
 *   { publicInfo: { dashboard: 'http://…' }, privateInfo: {} },
 * );
 * // { privateInfo: { __dataContractGuardian: { policyId: 'p1' } }, publicInfo: { dashboard: 'http://…' } }
 */
export function mergeProvisioningInfo(
  input: unknown,
  output: unknown,
): Record<string, unknown> | null {
  const base = isPlainObject(input) ? input : undefined;
  if (!isPlainObject(output)) return base === undefined ? null : structuredClone(base);
  if (base === undefined) return structuredClone(output);
  const merged = deepMerge(structuredClone(base), structuredClone(output));
  const policyId = getGuardianPolicyId({ info: base });
  if (policyId === undefined) return merged;
  return withGuardianPolicyId({ id: '', info: merged }, policyId).info as Record<string, unknown>;
}
