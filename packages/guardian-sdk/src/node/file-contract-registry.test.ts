import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUARDIAN_ID, ORDERS_PORT, system } from '../__fixtures__/systems';
import { guardedContracts } from '../guarded-contracts';
import type { GuardianProvisioning } from '../tech-adapter';
import { openFileContractRegistry } from './file-contract-registry';

function provisioning(
  policyId: string | undefined,
  environment: string | undefined = undefined,
  operation: 'provision' | 'unprovision' = 'provision',
): GuardianProvisioning {
  const descriptor = system() as never;
  const guardian = system().components[2] as never;
  const found = guardedContracts(descriptor, guardian);
  if (!found.success) throw new Error('fixture');
  return {
    operation,
    policyId,
    environment,
    system: descriptor,
    guardian,
    contracts: found.data,
    guardedContractIds: [ORDERS_PORT],
    removeData: false,
    request: { descriptorKind: 'COMPONENT_DESCRIPTOR', descriptor: '', removeData: false },
  };
}

describe('openFileContractRegistry', () => {
  it('keeps what it was provisioned with across a restart, and forgets on unprovision', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dcg-reg-')), 'nested', 'contracts.json');
    const first = openFileContractRegistry(file, { defaultEnvironment: 'qa' });
    first.provisioned(provisioning('p-1'));
    expect(first.list().map((c) => [c.resourceId, c.policyId, c.environment])).toEqual([
      [ORDERS_PORT, 'p-1', 'qa'],
    ]);
    const again = openFileContractRegistry(file, { defaultEnvironment: 'qa' });
    expect(again.list()).toEqual(first.list());
    expect(again.list()[0]?.parts[0]?.contract.models[0]?.table).toBe('orders');
    again.unprovisioned(provisioning(undefined));
    expect(openFileContractRegistry(file).list()).toEqual([]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ guardians: {} });
  });

  it('keeps each environment apart: undeploying qa leaves production monitored, across a restart', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dcg-reg-')), 'contracts.json');
    const first = openFileContractRegistry(file);
    first.provisioned(provisioning('p-prod', 'production'));
    first.provisioned(provisioning('p-qa', 'qa'));
    const rows = (r: {
      list(): Array<{ resourceId: string; policyId: string; environment: string }>;
    }) => r.list().map((c) => [c.resourceId, c.policyId, c.environment]);
    expect(rows(first)).toEqual([
      [ORDERS_PORT, 'p-prod', 'production'],
      [ORDERS_PORT, 'p-qa', 'qa'],
    ]);
    // A restart, then qa is undeployed: production is still monitored, by this process and the next.
    const restarted = openFileContractRegistry(file);
    expect(rows(restarted)).toEqual(rows(first));
    restarted.unprovisioned(provisioning(undefined, 'qa', 'unprovision'));
    expect(rows(restarted)).toEqual([[ORDERS_PORT, 'p-prod', 'production']]);
    expect(rows(openFileContractRegistry(file))).toEqual([[ORDERS_PORT, 'p-prod', 'production']]);
    // Provisioning production again replaces production only; undeploying an unknown environment changes nothing.
    restarted.provisioned(provisioning('p-prod-2', 'production'));
    restarted.unprovisioned(provisioning(undefined, 'dev', 'unprovision'));
    expect(rows(openFileContractRegistry(file))).toEqual([[ORDERS_PORT, 'p-prod-2', 'production']]);
    restarted.unprovisioned(provisioning(undefined, 'production', 'unprovision'));
    expect(openFileContractRegistry(file).list()).toEqual([]);
  });

  it('ignores a provisioning without a policy id, and refuses a corrupt file with its name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcg-reg-'));
    const registry = openFileContractRegistry(join(dir, 'a.json'));
    registry.provisioned(provisioning(undefined));
    expect(registry.list()).toEqual([]);
    writeFileSync(join(dir, 'bad.json'), '{not json');
    expect(() => openFileContractRegistry(join(dir, 'bad.json'))).toThrow(
      /cannot read the contract registry .*bad\.json/,
    );
    expect(GUARDIAN_ID).toContain('guardian');
  });
});
