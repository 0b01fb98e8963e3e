import {
  type ComponentDescriptor,
  ComponentProvisioningDescriptorSchema,
  type SystemDescriptor,
  SystemDescriptorSchema,
} from './descriptor';
import { safeParseDescriptorYaml } from './descriptor-yaml';
import { findComponent } from './find-component';
import type { ProvisioningRequest } from './provisioning-request';
import { prefixIssues, type Validation, validateWith, validationIssue } from './validation';

/** The parsed `descriptor` of a provisioning request. */
export type ProvisioningDescriptor =
  | {
      kind: 'COMPONENT_DESCRIPTOR';
      system: SystemDescriptor;
      componentIdToProvision: string;
      /** The component to provision, found in `system` at any depth. */
      component: ComponentDescriptor;
    }
  | {
      kind: 'DATAPRODUCT_DESCRIPTOR' | 'DATAPRODUCT_DESCRIPTOR_WITH_RESULTS';
      system: SystemDescriptor;
    };

function withPrefix<T>(result: Validation<T>): Validation<T> {
  if (result.success) return result;
  return { success: false, issues: prefixIssues(['descriptor'], result.issues) };
}

/**
 * Parses and validates the YAML `descriptor` of a provisioning request according to its
 * `descriptorKind`. For `COMPONENT_DESCRIPTOR` it also finds the component to provision. Issue
 * paths point inside the YAML document (`$.descriptor.dataProduct.components[0].id`).
 *
 * @example
 * const parsed = parseProvisioningDescriptor(request);
 * if (parsed.success && parsed.data.kind === 'COMPONENT_DESCRIPTOR') {
 *   console.log(getGuardianPolicyId(parsed.data.component));
 * }
 */
export function parseProvisioningDescriptor(
  request: Pick<ProvisioningRequest, 'descriptorKind' | 'descriptor'>,
): Validation<ProvisioningDescriptor> {
  const parsed = safeParseDescriptorYaml(request.descriptor);
  if (!parsed.success) {
    return { success: false, issues: prefixIssues(['descriptor'], parsed.issues) };
  }
  const document = parsed.data;
  if (request.descriptorKind !== 'COMPONENT_DESCRIPTOR') {
    const system = withPrefix(validateWith(SystemDescriptorSchema, document));
    if (!system.success) return system;
    return { success: true, data: { kind: request.descriptorKind, system: system.data } };
  }
  const payload = withPrefix(validateWith(ComponentProvisioningDescriptorSchema, document));
  if (!payload.success) return payload;
  const { dataProduct, componentIdToProvision } = payload.data;
  const component = findComponent(dataProduct, componentIdToProvision);
  if (component === undefined) {
    return {
      success: false,
      issues: [
        validationIssue(
          'component_not_found',
          ['descriptor', 'componentIdToProvision'],
          `no component "${componentIdToProvision}" in dataProduct.components`,
        ),
      ],
    };
  }
  return {
    success: true,
    data: { kind: 'COMPONENT_DESCRIPTOR', system: dataProduct, componentIdToProvision, component },
  };
}
