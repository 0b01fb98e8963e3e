import type { ProvisioningCoordinator } from './provisioning-coordinator';
import type { PlanRepository } from './repositories';

/**
 * Options of {@link PlanLeases}.
 *
 * @example
 * const options: PlanLeasesOptions = { instanceId: 'a1', leaseMs: 30_000 };
 */
export interface PlanLeasesOptions {
  /** The id this instance's plans are stored under (the coordinator's `instanceId`). */
  instanceId: string;
  /** How long a lease lives without renewal (default 30 s). */
  leaseMs?: number;
  /** How often the lease is renewed and orphaned plans are looked for (default a third of it). */
  renewMs?: number;
  /** Told about renewals or recoveries that failed (the next round retries). */
  onError?: (error: unknown) => void;
  /** Told how many orphaned plans a round marked failed. */
  onRecovered?: (count: number) => void;
}

/**
 * The lease of one service instance on its provisioning plans, so that several instances can
 * share one database: each renews its lease every `renewMs`, and in the same round marks failed
 * the running plans of instances whose lease has expired (they died, or stopped without
 * finishing). The plans of live instances are never touched.
 *
 * @example
 * const leases = new PlanLeases(store, coordinator, { instanceId });
 * const recovered = await leases.start(); // before serving
 * await leases.stop(); // at shutdown, after the coordinator is idle
 */
export class PlanLeases {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private readonly leaseMs: number;

  constructor(
    private readonly plans: PlanRepository,
    private readonly coordinator: ProvisioningCoordinator,
    private readonly options: PlanLeasesOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  /**
   * Takes the lease, recovers the plans of dead instances, and keeps renewing. An instance that
   * starts again under its earlier id (a stable id, e.g. kept in its data folder) runs none of
   * the plans stored under it: it ends the lease that id may still hold first, so that its own
   * interrupted plans are marked failed at once instead of once that lease lapses.
   */
  async start(): Promise<number> {
    await this.plans.endLease(this.options.instanceId);
    const recovered = await this.coordinator.recoverInterrupted();
    await this.plans.renewLease(this.options.instanceId, this.leaseMs);
    this.timer = setInterval(
      () => {
        this.round ??= this.renew().finally(() => {
          this.round = undefined;
        });
      },
      this.options.renewMs ?? this.leaseMs / 3,
    );
    this.timer.unref();
    return recovered;
  }

  private async renew(): Promise<void> {
    try {
      await this.plans.renewLease(this.options.instanceId, this.leaseMs);
      const recovered = await this.coordinator.recoverInterrupted();
      if (recovered > 0) this.options.onRecovered?.(recovered);
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** Stops renewing and ends the lease: what this instance left running is orphaned at once. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.round;
    await this.plans.endLease(this.options.instanceId);
  }
}
