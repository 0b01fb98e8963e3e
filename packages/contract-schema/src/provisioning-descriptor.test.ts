import { describe, expect, it } from 'vitest';
import { stringifyDescriptorYaml } from './descriptor-yaml';
import { parseProvisioningDescriptor } from './provisioning-descriptor';
import { getGuardianPolicyId } from './provisioning-info';

const system = {
  id: 'urn:dmb:dp:finance:invoices:0',
  kind: 'dataproduct',
  components: [
    {
      id: 'urn:dmb:cmp:finance:invoices:0:bundle',
      components: [
        {
          id: 'urn:dmb:cmp:finance:invoices:0:guardian',
          kind: 'workload',
          info: { privateInfo: { __dataContractGuardian: { policyId: 'policy-42' } } },
        },
      ],
    },
  ],
};

describe('parseProvisioningDescriptor', () => {
  it('finds the component to provision of a COMPONENT_DESCRIPTOR, at any depth', () => {
    const result = parseProvisioningDescriptor({
      descriptorKind: 'COMPONENT_DESCRIPTOR',
      descriptor: stringifyDescriptorYaml({
        dataProduct: system,
        componentIdToProvision: 'urn:dmb:cmp:finance:invoices:0:guardian',
      }),
    });
    expect(result.success).toBe(true);
    if (result.success && result.data.kind === 'COMPONENT_DESCRIPTOR') {
      expect(getGuardianPolicyId(result.data.component)).toBe('policy-42');
      expect(result.data.system).toEqual(system);
    }
  });

  it('reads a whole system for DATAPRODUCT_DESCRIPTOR', () => {
    const result = parseProvisioningDescriptor({
      descriptorKind: 'DATAPRODUCT_DESCRIPTOR',
      descriptor: stringifyDescriptorYaml(system),
    });
    expect(result).toEqual({ success: true, data: { kind: 'DATAPRODUCT_DESCRIPTOR', system } });
  });

  it('reports a missing component, schema problems and YAML errors with paths', () => {
    expect(
      parseProvisioningDescriptor({
        descriptorKind: 'COMPONENT_DESCRIPTOR',
        descriptor: stringifyDescriptorYaml({
          dataProduct: system,
          componentIdToProvision: 'urn:x',
        }),
      }),
    ).toEqual({
      success: false,
      issues: [
        {
          code: 'component_not_found',
          segments: ['descriptor', 'componentIdToProvision'],
          path: '$.descriptor.componentIdToProvision',
          message: 'no component "urn:x" in dataProduct.components',
        },
      ],
    });
    expect(
      parseProvisioningDescriptor({
        descriptorKind: 'COMPONENT_DESCRIPTOR',
        descriptor: stringifyDescriptorYaml({ dataProduct: { id: 'urn:dmb:dp:a:b:0' } }),
      }),
    ).toEqual({
      success: false,
      issues: [
        {
          code: 'invalid_type',
          segments: ['descriptor', 'dataProduct', 'kind'],
          path: '$.descriptor.dataProduct.kind',
          message: 'is required (expected string)',
          params: { expected: 'string', received: 'undefined' },
        },
        {
          code: 'invalid_type',
          segments: ['descriptor', 'componentIdToProvision'],
          path: '$.descriptor.componentIdToProvision',
          message: 'is required (expected string)',
          params: { expected: 'string', received: 'undefined' },
        },
      ],
    });
    const broken = parseProvisioningDescriptor({
      descriptorKind: 'DATAPRODUCT_DESCRIPTOR',
      descriptor: 'id: [',
    });
    expect(broken.success).toBe(false);
    if (!broken.success) {
      expect(broken.issues[0]?.code).toBe('invalid_yaml');
      expect(broken.issues[0]?.segments).toEqual(['descriptor']);
      expect(broken.issues[0]?.message).toMatch(/^the descriptor is not valid YAML at line 1/);
    }
  });

  it('keeps the code of a limit the descriptor text passes', () => {
    const deep = parseProvisioningDescriptor({
      descriptorKind: 'DATAPRODUCT_DESCRIPTOR',
      descriptor: `id: ${'['.repeat(200)}${']'.repeat(200)}`,
    });
    expect(deep).toMatchObject({
      success: false,
      issues: [{ code: 'too_deep', segments: ['descriptor'], path: '$.descriptor' }],
    });
  });
});
