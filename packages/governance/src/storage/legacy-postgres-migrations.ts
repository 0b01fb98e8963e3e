import { complianceStateOf } from '@dcg/contract-schema';
import { guardedContracts } from '../guarded-contracts';
import {
  guardsAndLeasesSql,
  INSTANCE_COMPONENTS_SQL,
  initialSchemaSql,
  POSTGRES_TYPES,
} from './legacy-schema-sql';

/** What a backfill queries through: the migration's connection (see governance-migrations.ts). */
export interface LegacyClient {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * One schema version: `sql`, then `backfill` (derived rows SQL cannot compute), in one transaction.
 */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
  backfill?: (client: LegacyClient) => Promise<void>;
}

/**
 * Schema versions of the PostgreSQL store as the per-dialect runner (table `schema_migrations`)
 * applied them, before `dcg_schema_versions`. Together they are version 1 of the `governance`
 * component (see governance-migrations.ts). Never edit an entry.
 */
export const POSTGRES_MIGRATIONS: ReadonlyArray<PostgresMigration> = [
  {
    version: 1,
    name: 'initial schema',
    sql: initialSchemaSql(POSTGRES_TYPES),
  },
  {
    version: 2,
    name: 'compliance status stored with each result; component index of instances',
    // The status is computed once when a result is accepted; the current pointer carries it (and
    // the time) so list pages read statuses without documents. Existing rows get their state from
    // complianceStateOf in the backfill (SQL only picks out the verdict).
    sql: `
ALTER TABLE evaluation_results ADD COLUMN status TEXT NOT NULL DEFAULT 'unprocessable';
ALTER TABLE evaluation_results ALTER COLUMN status DROP DEFAULT,
  ADD CONSTRAINT evaluation_results_status CHECK (status IN ('compliant', 'violated', 'unprocessable'));
ALTER TABLE current_results ADD COLUMN status TEXT, ADD COLUMN received_at TEXT;
UPDATE current_results c SET status = r.status, received_at = r.received_at
  FROM evaluation_results r WHERE r.seq = c.seq;
UPDATE current_results SET status = 'unprocessable', received_at = '' WHERE status IS NULL;
ALTER TABLE current_results ALTER COLUMN status SET NOT NULL, ALTER COLUMN received_at SET NOT NULL;
CREATE INDEX current_results_environment ON current_results (environment, contract_id);
${INSTANCE_COMPONENTS_SQL}WITH RECURSIVE component (system_id, environment, value) AS (
  SELECT i.system_id, i.environment, c.value
  FROM instances i CROSS JOIN LATERAL json_array_elements(
    CASE WHEN json_typeof(i.descriptor -> 'components') = 'array' THEN i.descriptor -> 'components' ELSE '[]'::json END
  ) AS c(value)
  UNION ALL
  SELECT p.system_id, p.environment, c.value
  FROM component p CROSS JOIN LATERAL json_array_elements(
    CASE WHEN json_typeof(p.value) = 'object' AND json_typeof(p.value -> 'components') = 'array'
      THEN p.value -> 'components' ELSE '[]'::json END
  ) AS c(value)
)
INSERT INTO instance_components (component_id, environment, system_id)
SELECT DISTINCT value ->> 'id', environment, system_id FROM component
WHERE json_typeof(value) = 'object' AND json_typeof(value -> 'id') = 'string'
  AND strpos((value -> 'id')::text, '\\u0000') = 0
ON CONFLICT DO NOTHING;
`,
    async backfill(client) {
      const { rows } = await client.query<{ seq: string; conform: boolean; verdict: unknown }>(
        "SELECT seq, details_conform AS conform, CASE WHEN json_typeof(submission) = 'object' THEN submission -> 'result' -> 'satisfiesPolicy' END AS verdict FROM evaluation_results",
      );
      const states = rows.map((row) =>
        complianceStateOf({ satisfiesPolicy: row.verdict === true, detailsConform: row.conform }),
      );
      await client.query(
        'UPDATE evaluation_results r SET status = u.status FROM unnest($1::bigint[], $2::text[]) AS u(seq, status) WHERE r.seq = u.seq',
        [rows.map((row) => row.seq), states],
      );
      await client.query(
        'UPDATE current_results c SET status = r.status FROM evaluation_results r WHERE r.seq = c.seq',
      );
    },
  },
  {
    version: 3,
    name: 'environment of plans as a column, for the plan list',
    sql: `
ALTER TABLE plans ADD COLUMN environment TEXT NOT NULL DEFAULT '';
UPDATE plans SET environment = coalesce(document ->> 'environment', '');
CREATE INDEX plans_environment_created ON plans (environment, created_at);
CREATE INDEX plans_created ON plans (created_at);
`,
  },
  {
    version: 4,
    name: 'template registrations per environment; index of guarded contracts; plan leases',
    // Registrations made before this version had no environment key: they stay environment-less
    // (serving every environment), as they behaved.
    sql: `
ALTER TABLE templates ADD COLUMN environment TEXT NOT NULL DEFAULT '';
ALTER TABLE templates DROP CONSTRAINT templates_pkey, ADD PRIMARY KEY (id, environment);
${guardsAndLeasesSql(POSTGRES_TYPES)}`,
    async backfill(client) {
      const { rows } = await client.query(
        'SELECT system_id, environment, descriptor FROM instances',
      );
      for (const row of rows as Array<{
        system_id: string;
        environment: string;
        descriptor: unknown;
      }>) {
        if (typeof row.descriptor !== 'object' || row.descriptor === null) continue;
        const where = { systemId: row.system_id, environment: row.environment };
        for (const g of guardedContracts(row.descriptor as Record<string, unknown>, where)) {
          await client.query(
            `INSERT INTO instance_guards (contract_id, environment, policy_id, guardian_id, system_id)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
            [g.contractId, g.environment, g.policyId, g.guardianId, g.systemId],
          );
        }
      }
    },
  },
];
