import { describe, expect, it } from 'vitest';
import { ProvisioningRequestSchema, UpdateAclRequestSchema } from './provisioning-request';
import { ProvisioningStatusSchema } from './provisioning-status';
import { TechAdapterErrorSchema, TechAdapterSystemErrorSchema } from './tech-adapter-error';
import { validateWith } from './validation';
import { ValidationResultSchema, ValidationStatusSchema } from './validation-result';

describe('tech adapter API shapes (v2.2.0)', () => {
  it('reads a provisioning request and rejects an unknown descriptor kind', () => {
    expect(
      ProvisioningRequestSchema.parse({
        descriptorKind: 'DATAPRODUCT_DESCRIPTOR',
        descriptor: 'id: urn:dmb:dp:a:b:0\n',
        removeData: true,
        latestEnrichedDescriptor: 'id: urn:dmb:dp:a:b:0\n',
      }).removeData,
    ).toBe(true);
    const bad = validateWith(ProvisioningRequestSchema, {
      descriptorKind: 'SYSTEM',
      descriptor: '',
      removeData: false,
    });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.issues[0]?.path).toBe('$.descriptorKind');
  });

  it('reads provisioning statuses with info, null info and logs', () => {
    const status = ProvisioningStatusSchema.parse({
      status: 'COMPLETED',
      result: '',
      info: { publicInfo: {}, privateInfo: { __dataContractGuardian: { policyId: 'p' } } },
      logs: [
        { timestamp: '2026-11-22T00:00:00.000Z', level: 'INFO', message: 'ok', phase: 'deploy' },
      ],
    });
    expect(status.logs?.[0]?.level).toBe('INFO');
    expect(
      ProvisioningStatusSchema.parse({ status: 'RUNNING', result: '', info: null }).info,
    ).toBeNull();
    const bad = validateWith(ProvisioningStatusSchema, {
      status: 'DONE',
      result: '',
      logs: [{ timestamp: 'yesterday', level: 'INFO', message: 'x' }],
    });
    expect(bad.success).toBe(false);
    if (!bad.success) {
      expect(bad.issues.map((i) => i.path)).toEqual(['$.status', '$.logs[0].timestamp']);
    }
  });

  it('reads validation results, statuses, ACL requests and both error bodies', () => {
    expect(
      ValidationResultSchema.parse({ valid: false, error: { errors: ['missing passive policy'] } })
        .valid,
    ).toBe(false);
    expect(
      ValidationStatusSchema.parse({ status: 'COMPLETED', info: { publicInfo: { valid: true } } })
        .status,
    ).toBe('COMPLETED');
    expect(
      UpdateAclRequestSchema.parse({
        refs: ['user:alice', 'group:a'],
        provisionInfo: { request: '{}', result: 'ok' },
      }).refs,
    ).toHaveLength(2);
    expect(
      TechAdapterErrorSchema.parse({
        errors: ['x'],
        moreInfo: { problems: ['p'], solutions: ['s'] },
      }).moreInfo?.problems,
    ).toEqual(['p']);
    expect(TechAdapterSystemErrorSchema.safeParse({ errors: ['x'] }).success).toBe(false);
  });
});
