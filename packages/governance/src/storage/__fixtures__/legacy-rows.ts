import { expect } from 'vitest';
import type { GovernanceStore, StoredEvaluationResult } from '../../repositories';

// Rows as a database written before statuses, the component index and per-environment
// registrations existed holds them; each engine's test writes them with its own SQL and checks
// that opening the store derives what later versions store.

/** A stored submission of the old format, satisfying its policy or not. */
export const legacySubmission = (satisfiesPolicy: boolean): string =>
  JSON.stringify({ resource: { id: 'x', descriptor: '' }, result: { satisfiesPolicy } });

/** The document of a completed deploy plan of `urn:dmb:dp:m:s:0` in environment `e`. */
export const LEGACY_PLAN_DOCUMENT = JSON.stringify({
  id: 'old-plan',
  operation: 'deploy',
  environment: 'e',
  systemId: 'urn:dmb:dp:m:s:0',
  systemKind: 'dataproduct',
  status: 'completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  tasks: [],
  errors: [],
});

/**
 * Checks what the migrated store derives from the legacy rows (results of `ok`, `bad` twice and
 * `odd` with nonconforming details; the plan; an instance with a nested component), then appends
 * a result to `bad` and checks that its status moves forward. Answers the appended record.
 *
 * @example
 * const next = await expectLegacyRowsMigrated(store, '2026-01-01T00:00:03.000Z');
 */
export async function expectLegacyRowsMigrated(
  store: GovernanceStore,
  lastBadReceivedAt: string,
): Promise<StoredEvaluationResult> {
  expect(
    (await store.listPlans({ environment: 'e', limit: 10, offset: 0 })).data.map((p) => p.id),
  ).toEqual(['old-plan']);
  const statuses = await store.getCurrentStatuses(['ok', 'bad', 'odd', 'none'], 'e');
  expect(Object.fromEntries(statuses.map((s) => [s.contractId, s.status]))).toEqual({
    ok: 'compliant',
    bad: 'violated',
    odd: 'unprocessable',
  });
  expect(statuses.find((s) => s.contractId === 'bad')?.receivedAt).toBe(lastBadReceivedAt);
  expect((await store.getCurrentResult('ok', 'e'))?.status).toBe('compliant');
  for (const component of ['urn:dmb:cmp:m:s:0:a', 'urn:dmb:cmp:m:s:0:nested']) {
    expect((await store.findInstancesWithComponent(component)).map((i) => i.systemId)).toEqual([
      'urn:dmb:dp:m:s:0',
    ]);
  }
  // New results after the migration move the stored status forward.
  const next = await store.appendResult({
    contractId: 'bad',
    policyId: 'p',
    environment: 'e',
    receivedAt: '2026-01-02T00:00:00.000Z',
    submission: {},
    detailsConform: true,
    status: 'compliant',
  });
  expect((await store.getCurrentStatuses(['bad'], 'e'))[0]?.status).toBe('compliant');
  return next;
}
