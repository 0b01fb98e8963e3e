import { createGovernance, type Governance } from '../governance';
import { openSqliteStore } from '../storage/sqlite';

/**
 * Governance over an in-memory SQLite store, polling tech adapters every 10 ms for at most
 * `pollTimeoutMs` (each request 2 s at most).
 *
 * @example
 * const governance = await inMemoryGovernance(400);
 * afterAll(() => closeGovernance(governance));
 */
export async function inMemoryGovernance(pollTimeoutMs: number): Promise<Governance> {
  return createGovernance(await openSqliteStore({ file: ':memory:' }), {
    adapters: { pollIntervalMs: 10, pollTimeoutMs, requestTimeoutMs: 2000 },
  });
}

/**
 * Waits for running plans to end, then closes the store.
 *
 * @example
 * await closeGovernance(governance);
 */
export async function closeGovernance(governance: Governance): Promise<void> {
  await governance.coordinator.idle();
  await governance.store.close();
}
