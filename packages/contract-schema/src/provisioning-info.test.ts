import { describe, expect, it } from 'vitest';
import type { ComponentDescriptor } from './descriptor';
import {
  explainProvisioningInfoViolation,
  GUARDIAN_POLICY_ID_PATH,
  getGuardianPolicyId,
  isValidProvisioningInfo,
  mergeProvisioningInfo,
  withCompleteInfo,
  withGuardianPolicyId,
} from './provisioning-info';
import { ProvisioningStatusSchema } from './provisioning-status';

const input = {
  privateInfo: { __dataContractGuardian: { policyId: 'policy-42' }, region: 'eu' },
  publicInfo: { owner: { type: 'string', label: 'Owner', value: 'alice' } },
};

describe('isValidProvisioningInfo / explainProvisioningInfoViolation', () => {
  it('accepts null: the coordinator keeps the input info', () => {
    expect(isValidProvisioningInfo(input, null)).toBe(true);
    expect(explainProvisioningInfoViolation(input, null)).toBeUndefined();
  });

  it('accepts a superset that adds values and keeps every input value', () => {
    const output = {
      publicInfo: { ...input.publicInfo, dashboard: { type: 'link', href: 'http://127.0.0.1/d' } },
      privateInfo: { ...input.privateInfo, checkpoint: 'ckpt-7' },
    };
    expect(isValidProvisioningInfo(input, output)).toBe(true);
  });

  it('rejects an info that drops the policy id, and says the id would be lost', () => {
    const output = { publicInfo: {}, privateInfo: { region: 'eu' } };
    expect(isValidProvisioningInfo(input, output)).toBe(false);
    const message = explainProvisioningInfoViolation(input, output);
    expect(message).toContain('$.privateInfo.__dataContractGuardian');
    expect(message).toContain('$.publicInfo.owner');
    expect(message).toContain(
      'the passive policy id "policy-42" at info.privateInfo.__dataContractGuardian.policyId would be lost',
    );
  });

  it('rejects a response that leaves info out without setting it to null', () => {
    expect(isValidProvisioningInfo(input, undefined)).toBe(false);
    expect(explainProvisioningInfoViolation(input, undefined)).toMatch(
      /leaves out `info` without setting it to null: the passive policy id "policy-42"/,
    );
  });

  it('rejects a changed policy id', () => {
    const output = structuredClone(input);
    output.privateInfo.__dataContractGuardian.policyId = 'other';
    expect(explainProvisioningInfoViolation(input, output)).toContain(
      '$.privateInfo.__dataContractGuardian.policyId',
    );
  });

  it('has nothing to lose when the input carried no info', () => {
    expect(isValidProvisioningInfo(undefined, undefined)).toBe(true);
    expect(isValidProvisioningInfo({}, { publicInfo: {}, privateInfo: {} })).toBe(true);
  });
});

describe('mergeProvisioningInfo', () => {
  it('keeps the input when the adapter answers null', () => {
    const merged = mergeProvisioningInfo(input, null);
    expect(merged).toEqual(input);
    expect(merged).not.toBe(input);
  });

  it('adds the adapter values to the input, deep', () => {
    const merged = mergeProvisioningInfo(input, {
      publicInfo: { dashboard: 'http://127.0.0.1/d' },
      privateInfo: { checkpoint: 'ckpt-7' },
    });
    expect(merged).toEqual({
      privateInfo: {
        __dataContractGuardian: { policyId: 'policy-42' },
        region: 'eu',
        checkpoint: 'ckpt-7',
      },
      publicInfo: { owner: input.publicInfo.owner, dashboard: 'http://127.0.0.1/d' },
    });
  });

  it('never lets the adapter drop or change the policy id', () => {
    const merged = mergeProvisioningInfo(input, {
      publicInfo: {},
      privateInfo: { __dataContractGuardian: { policyId: 'forged', extra: 1 } },
    });
    expect(merged?.privateInfo).toEqual({
      __dataContractGuardian: { policyId: 'policy-42', extra: 1 },
      region: 'eu',
    });
  });

  it('is null when neither side has info', () => {
    expect(mergeProvisioningInfo(undefined, null)).toBeNull();
  });
});

describe('policy id helpers', () => {
  it('reads and writes info.privateInfo.__dataContractGuardian.policyId', () => {
    expect(GUARDIAN_POLICY_ID_PATH.join('.')).toBe(
      'info.privateInfo.__dataContractGuardian.policyId',
    );
    const component = { id: 'urn:dmb:cmp:a:b:0:guardian', info: { publicInfo: { a: 1 } } };
    const sent = withGuardianPolicyId(component, 'policy-42');
    expect(getGuardianPolicyId(sent)).toBe('policy-42');
    expect(sent.info).toEqual({
      publicInfo: { a: 1 },
      privateInfo: { __dataContractGuardian: { policyId: 'policy-42' } },
    });
    expect(getGuardianPolicyId(component)).toBeUndefined();
    expect(component.info).toEqual({ publicInfo: { a: 1 } });
  });
});

describe('the info sent to a guardian adapter', () => {
  it('has publicInfo and privateInfo, so an adapter that echoes it answers a valid info', () => {
    const component: ComponentDescriptor = { id: 'urn:dmb:cmp:a:b:0:g' };
    const sent = withGuardianPolicyId(component, 'policy-42');
    expect(sent.info).toEqual({
      publicInfo: {},
      privateInfo: { __dataContractGuardian: { policyId: 'policy-42' } },
    });
    const echo = ProvisioningStatusSchema.safeParse({
      status: 'COMPLETED',
      result: 'ok',
      info: structuredClone(sent.info),
    });
    expect(echo.success).toBe(true);
    expect(isValidProvisioningInfo(sent.info, echo.data?.info)).toBe(true);
  });

  it('keeps publicInfo the component already had', () => {
    const sent = withGuardianPolicyId(
      { id: 'urn:dmb:cmp:a:b:0:g', info: { publicInfo: { dashboard: 'http://d' } } },
      'p1',
    );
    expect(sent.info?.publicInfo).toEqual({ dashboard: 'http://d' });
  });
});

describe('withCompleteInfo', () => {
  it('fills in the missing half of an info object and leaves components without info alone', () => {
    const bare: ComponentDescriptor = { id: 'urn:dmb:cmp:a:b:0:c' };
    expect(withCompleteInfo(bare)).toBe(bare);
    expect(withCompleteInfo({ id: 'c', info: { privateInfo: { k: 1 } } }).info).toEqual({
      privateInfo: { k: 1 },
      publicInfo: {},
    });
    const complete: ComponentDescriptor = { id: 'c', info: { publicInfo: {}, privateInfo: {} } };
    expect(withCompleteInfo(complete)).toBe(complete);
  });
});
