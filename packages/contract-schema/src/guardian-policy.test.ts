import { describe, expect, it } from 'vitest';
import { DataContractGuardianSchema, GuardianPolicySpecSchema } from './guardian-policy';
import { InfrastructureTemplateSchema } from './infrastructure-template';
import { toValidationIssues } from './validation';

describe('GuardianPolicySpecSchema', () => {
  it('accepts the creation form and the reference form', () => {
    expect(GuardianPolicySpecSchema.parse({ name: 'DC', description: 'quality' })).toEqual({
      name: 'DC',
      description: 'quality',
    });
    expect(GuardianPolicySpecSchema.parse({ id: 'policy-42' })).toEqual({ id: 'policy-42' });
  });

  it('rejects a spec that mixes both forms, naming the two forms', () => {
    const result = GuardianPolicySpecSchema.safeParse({ id: 'p', name: 'DC', description: 'd' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'spec must be either { name, description } (create) or { id } (reference), not both',
    );
  });

  it('rejects a creation form without a description', () => {
    const result = GuardianPolicySpecSchema.safeParse({ name: 'DC' });
    expect(result.error?.issues[0]?.message).toMatch(/\{ name: string, description: string \}/);
  });
});

describe('DataContractGuardianSchema', () => {
  it('names the duplicated resource type and points at the second entry', () => {
    const result = DataContractGuardianSchema.safeParse({
      policies: [
        { resourceType: 'dataproduct', spec: { id: 'p1' } },
        { resourceType: 'biproject', spec: { id: 'p2' } },
        { resourceType: 'dataproduct', spec: { name: 'n', description: 'd' } },
      ],
    });
    expect(result.success).toBe(false);
    expect(toValidationIssues(result.error?.issues ?? [])).toEqual([
      {
        code: 'duplicate_resource_type',
        segments: ['policies', 2, 'resourceType'],
        path: '$.policies[2].resourceType',
        message:
          'duplicate resourceType "dataproduct": at most one policy per resource type (first at policies[0])',
      },
    ]);
  });
});

describe('DataContractGuardianSchema with other problems', () => {
  it('reports a duplicate resourceType next to an invalid entry, in one pass', () => {
    const result = DataContractGuardianSchema.safeParse({
      policies: [
        { resourceType: 'dataproduct', spec: { id: 'p1' } },
        { resourceType: 'dataproduct', spec: { id: 'p2' } },
        { resourceType: 'biproject', spec: {} },
        { spec: { id: 'p4' } },
      ],
    });
    const paths = toValidationIssues(result.error?.issues ?? []).map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '$.policies[1].resourceType',
        '$.policies[2].spec',
        '$.policies[3].resourceType',
      ]),
    );
  });
});

describe('DataContractGuardianSchema with a value that is not an object', () => {
  it.each([null, undefined, 7, 'x', []])('reports %j at the root instead of throwing', (value) => {
    const result = DataContractGuardianSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([[]]);
  });
});

describe('InfrastructureTemplateSchema', () => {
  it('keeps unknown template properties next to dataContractGuardian', () => {
    const template = InfrastructureTemplateSchema.parse({
      id: 'urn:dmb:itm:ge-guardian:1',
      name: 'GE guardian',
      url: 'http://127.0.0.1:8093',
      owner: 'platform',
      properties: { team: 'quality', dataContractGuardian: { policies: [] } },
    });
    expect(template.owner).toBe('platform');
    expect(template.properties?.team).toBe('quality');
    expect(template.properties?.dataContractGuardian).toEqual({ policies: [] });
  });
});
