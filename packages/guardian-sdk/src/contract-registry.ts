import type { MonitoredContract } from './run-guardian';
import type { GuardianProvisioning } from './tech-adapter';

/** A snapshot of what a registry holds, as plain JSON (for persistence). */
export interface ContractRegistrySnapshot {
  /** Guardian component id → the contracts it was provisioned with, in every environment. */
  guardians: Record<string, MonitoredContract[]>;
}

/**
 * The contracts a guardian process monitors, kept from provision and unprovision calls: the
 * link between {@link createGuardianAdapter} and {@link runGuardian}. A contract is kept per
 * (guardian, contract, environment): provisioning a guardian in `qa` replaces what it guarded in
 * `qa` only, and unprovisioning it in `qa` never touches `production`. The environment is the
 * descriptor's (the provisioning coordinator sets it to the plan's), else `defaultEnvironment`
 * (default `production`). `onChange` lets a caller persist the snapshot.
 *
 * @example
 * const registry = new ContractRegistry({ defaultEnvironment: 'production' });
 * const adapter = createGuardianAdapter({ onProvision: (p) => registry.provisioned(p), onUnprovision: (p) => registry.unprovisioned(p) });
 * runGuardian({ contracts: () => registry.list(), checks, client });
 */
export class ContractRegistry {
  private guardians = new Map<string, MonitoredContract[]>();
  readonly defaultEnvironment: string;
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

  /** The environment a provisioning is for: the descriptor's, else the default. */
  environmentOf(provisioning: Pick<GuardianProvisioning, 'environment'>): string {
    return provisioning.environment ?? this.defaultEnvironment;
  }

  /** Records the contracts of a guardian provisioned in one environment (replacing what it guarded there). */
  provisioned(provisioning: GuardianProvisioning): void {
    const policyId = provisioning.policyId;
    if (policyId === undefined) return;
    const environment = this.environmentOf(provisioning);
    const id = provisioning.guardian.id;
    const elsewhere = (this.guardians.get(id) ?? []).filter((c) => c.environment !== environment);
    this.guardians.set(id, [
      ...elsewhere,
      ...provisioning.contracts.map((contract) => ({ ...contract, policyId, environment })),
    ]);
    this.onChange?.(this.snapshot());
  }

  /** Forgets what a guardian guarded in the environment it is unprovisioned from; other environments stay. */
  unprovisioned(provisioning: GuardianProvisioning): void {
    const id = provisioning.guardian.id;
    const before = this.guardians.get(id);
    if (before === undefined) return;
    const environment = this.environmentOf(provisioning);
    const kept = before.filter((c) => c.environment !== environment);
    if (kept.length === before.length) return;
    if (kept.length === 0) this.guardians.delete(id);
    else this.guardians.set(id, kept);
    this.onChange?.(this.snapshot());
  }

  /** Every monitored contract, in every environment. */
  list(): MonitoredContract[] {
    return [...this.guardians.values()].flat();
  }

  snapshot(): ContractRegistrySnapshot {
    return { guardians: Object.fromEntries(this.guardians) };
  }
}
