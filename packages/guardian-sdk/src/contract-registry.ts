import type { MonitoredContract } from './run-guardian';
import type { GuardianProvisioning } from './tech-adapter';

/** A snapshot of what a registry holds, as plain JSON (for persistence). */
export interface ContractRegistrySnapshot {
  /** Guardian component id → the contracts it was provisioned with. */
  guardians: Record<string, MonitoredContract[]>;
}

/**
 * The contracts a guardian process monitors, kept from provision and unprovision calls: the
 * link between {@link createGuardianAdapter} and {@link runGuardian}. `onChange` lets a caller
 * persist the snapshot.
 *
 * @example
 * const registry = new ContractRegistry({ defaultEnvironment: 'production' });
 * const adapter = createGuardianAdapter({ onProvision: (p) => registry.provisioned(p), onUnprovision: (p) => registry.unprovisioned(p) });
 * runGuardian({ contracts: () => registry.list(), checks, client });
 */
export class ContractRegistry {
  private guardians = new Map<string, MonitoredContract[]>();
  private readonly defaultEnvironment: string;
  private readonly onChange: ((snapshot: ContractRegistrySnapshot) => void) | undefined;

  constructor(
    options: {
      defaultEnvironment?: string | undefined;
      snapshot?: ContractRegistrySnapshot;
      onChange?: (snapshot: ContractRegistrySnapshot) => void;
    } = {},
  ) {
    this.defaultEnvironment = options.defaultEnvironment ?? 'production';
    this.onChange = options.onChange;
    for (const [id, contracts] of Object.entries(options.snapshot?.guardians ?? {})) {
      this.guardians.set(id, contracts);
    }
  }

  /** Records the contracts of a provisioned guardian (replacing its earlier ones). */
  provisioned(provisioning: GuardianProvisioning): void {
    const policyId = provisioning.policyId;
    if (policyId === undefined) return;
    const environment = provisioning.environment ?? this.defaultEnvironment;
    this.guardians.set(
      provisioning.guardian.id,
      provisioning.contracts.map((contract) => ({ ...contract, policyId, environment })),
    );
    this.onChange?.(this.snapshot());
  }

  /** Forgets an unprovisioned guardian. */
  unprovisioned(provisioning: GuardianProvisioning): void {
    if (this.guardians.delete(provisioning.guardian.id)) this.onChange?.(this.snapshot());
  }

  /** Every monitored contract. */
  list(): MonitoredContract[] {
    return [...this.guardians.values()].flat();
  }

  snapshot(): ContractRegistrySnapshot {
    return { guardians: Object.fromEntries(this.guardians) };
  }
}
