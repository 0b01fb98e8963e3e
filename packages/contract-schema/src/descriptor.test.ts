import { describe, expect, it } from 'vitest';
import { ComponentDescriptorSchema, SystemDescriptorSchema } from './descriptor';
import { getGuardianPolicyId } from './provisioning-info';

describe('SystemDescriptorSchema', () => {
  it('preserves every unknown field, at every level', () => {
    const input = {
      id: 'urn:dmb:dp:finance:invoices:0',
      kind: 'dataproduct',
      dataProductOwner: 'user:alice',
      tags: [{ tagFQN: 'finance' }],
      components: [
        {
          id: 'urn:dmb:cmp:finance:invoices:0:port',
          kind: 'outputport',
          useCaseTemplateId: 'urn:dmb:utm:op:0',
          dependsOn: ['urn:dmb:cmp:finance:invoices:0:storage'],
          dataContract: { schema: [{ name: 'id', dataType: 'string' }], termsAndConditions: 'tc' },
          info: {
            publicInfo: { x: 1 },
            privateInfo: { __dataContractGuardian: { policyId: 'p1', since: 3 }, other: true },
            latestProvisioningOperation: { operation: 'Deploy', status: 'Successful' },
          },
          components: [{ id: 'urn:dmb:cmp:finance:invoices:0:sub', shoppable: true }],
        },
      ],
    };
    const parsed = SystemDescriptorSchema.parse(input);
    expect(parsed).toEqual(input);
    expect(getGuardianPolicyId(parsed.components?.[0] ?? { info: undefined })).toBe('p1');
  });

  it('reads the guardian spec of a guardian component', () => {
    const guardian = ComponentDescriptorSchema.parse({
      id: 'urn:dmb:cmp:a:b:0:guardian',
      kind: 'workload',
      __dataContractGuardianSpec: {
        guards: [
          { dataContractId: 'urn:dmb:cmp:a:b:0:port', monitoringResultScheduling: '@hourly' },
        ],
      },
    });
    expect(guardian.__dataContractGuardianSpec?.guards[0]?.dataContractId).toBe(
      'urn:dmb:cmp:a:b:0:port',
    );
  });
});
