import { complianceStateOf } from '@dcg/contract-schema';
import type Database from 'better-sqlite3';
import { guardedContracts } from '../guarded-contracts';
import {
  guardsAndLeasesSql,
  INSTANCE_COMPONENTS_SQL,
  initialSchemaSql,
  SQLITE_TYPES,
} from './legacy-schema-sql';

/**
 * One schema version: `sql`, then `backfill` (derived rows SQL cannot compute), in one transaction.
 */
export interface SqliteMigration {
  version: number;
  name: string;
  sql: string;
  backfill?: (db: Database.Database) => void;
}

/**
 * Schema versions of the SQLite store as the per-dialect runner (table `schema_migrations`)
 * applied them, before `dcg_schema_versions`. Together they are version 1 of the `governance`
 * component (see governance-migrations.ts). Never edit an entry.
 */
export const SQLITE_MIGRATIONS: ReadonlyArray<SqliteMigration> = [
  {
    version: 1,
    name: 'initial schema',
    sql: initialSchemaSql(SQLITE_TYPES),
  },
  {
    version: 2,
    name: 'current result pointer maintained by a trigger',
    // One INSERT is then the whole write of a submission: history row and current pointer commit
    // together without an explicit transaction. The pointer only moves forward.
    sql: `
CREATE TRIGGER evaluation_results_current AFTER INSERT ON evaluation_results
BEGIN
  INSERT INTO current_results (contract_id, policy_id, environment, seq)
  VALUES (NEW.contract_id, NEW.policy_id, NEW.environment, NEW.seq)
  ON CONFLICT (contract_id, policy_id, environment) DO UPDATE SET seq = excluded.seq
  WHERE excluded.seq > current_results.seq;
END;
`,
  },
  {
    version: 3,
    name: 'compliance status stored with each result; component index of instances',
    // The status is computed once when a result is accepted; the current pointer carries it (and
    // the time) so list pages read statuses without parsing documents. Existing rows get their
    // state from complianceStateOf in the backfill (SQL only picks out the verdict).
    sql: `
ALTER TABLE evaluation_results ADD COLUMN status TEXT NOT NULL DEFAULT 'unprocessable'
  CHECK (status IN ('compliant', 'violated', 'unprocessable'));
ALTER TABLE current_results ADD COLUMN status TEXT NOT NULL DEFAULT 'unprocessable';
ALTER TABLE current_results ADD COLUMN received_at TEXT NOT NULL DEFAULT '';
UPDATE current_results SET
  status = (SELECT r.status FROM evaluation_results r WHERE r.seq = current_results.seq),
  received_at = (SELECT r.received_at FROM evaluation_results r WHERE r.seq = current_results.seq)
  WHERE EXISTS (SELECT 1 FROM evaluation_results r WHERE r.seq = current_results.seq);
CREATE INDEX current_results_environment ON current_results (environment, contract_id);
DROP TRIGGER evaluation_results_current;
CREATE TRIGGER evaluation_results_current AFTER INSERT ON evaluation_results
BEGIN
  INSERT INTO current_results (contract_id, policy_id, environment, seq, status, received_at)
  VALUES (NEW.contract_id, NEW.policy_id, NEW.environment, NEW.seq, NEW.status, NEW.received_at)
  ON CONFLICT (contract_id, policy_id, environment) DO UPDATE SET seq = excluded.seq,
    status = excluded.status, received_at = excluded.received_at
  WHERE excluded.seq > current_results.seq;
END;
${INSTANCE_COMPONENTS_SQL}INSERT OR IGNORE INTO instance_components (component_id, environment, system_id)
WITH RECURSIVE component (system_id, environment, type, value) AS (
  SELECT i.system_id, i.environment, c.type, c.value
  FROM instances i, json_each(i.descriptor, '$.components') c
  WHERE json_valid(i.descriptor) AND json_type(i.descriptor, '$.components') = 'array'
  UNION ALL
  SELECT p.system_id, p.environment, c.type, c.value
  FROM component p, json_each(p.value, '$.components') c
  WHERE p.type = 'object' AND json_type(p.value, '$.components') = 'array'
)
SELECT json_extract(value, '$.id'), environment, system_id FROM component
WHERE type = 'object' AND json_type(value, '$.id') = 'text'
  AND instr(json_extract(value, '$.id'), char(0)) = 0;
`,
    backfill(db) {
      const rows = db
        .prepare(
          "SELECT seq, details_conform AS conform, CASE WHEN json_valid(submission) THEN json_extract(submission, '$.result.satisfiesPolicy') END AS verdict FROM evaluation_results",
        )
        .all() as Array<{ seq: number; conform: number; verdict: unknown }>;
      const update = db.prepare('UPDATE evaluation_results SET status = ? WHERE seq = ?');
      for (const row of rows) {
        const state = complianceStateOf({
          satisfiesPolicy: row.verdict === 1,
          detailsConform: row.conform === 1,
        });
        update.run(state, row.seq);
      }
      db.exec(`UPDATE current_results SET
  status = (SELECT r.status FROM evaluation_results r WHERE r.seq = current_results.seq)
  WHERE EXISTS (SELECT 1 FROM evaluation_results r WHERE r.seq = current_results.seq)`);
    },
  },
  {
    version: 4,
    name: 'environment of plans as a column, for the plan list',
    sql: `
ALTER TABLE plans ADD COLUMN environment TEXT NOT NULL DEFAULT '';
UPDATE plans SET environment = coalesce(json_extract(document, '$.environment'), '')
  WHERE json_valid(document);
CREATE INDEX plans_environment_created ON plans (environment, created_at);
CREATE INDEX plans_created ON plans (created_at);
`,
  },
  {
    version: 5,
    name: 'the current result pointer is moved by the store, not by a trigger',
    // The store's group commit inserts the result and moves the pointer in one transaction.
    sql: 'DROP TRIGGER IF EXISTS evaluation_results_current;',
  },
  {
    version: 6,
    name: 'template registrations per environment; index of guarded contracts; plan leases',
    // Registrations made before this version had no environment key: they stay environment-less
    // (serving every environment), as they behaved.
    sql: `
CREATE TABLE templates_per_environment (
  id TEXT NOT NULL,
  environment TEXT NOT NULL DEFAULT '',
  document TEXT NOT NULL,
  registered_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (id, environment)
);
INSERT INTO templates_per_environment (id, environment, document, registered_at, updated_at)
  SELECT id, '', document, registered_at, updated_at FROM templates;
DROP TABLE templates;
ALTER TABLE templates_per_environment RENAME TO templates;
${guardsAndLeasesSql(SQLITE_TYPES)}`,
    backfill(db) {
      const insert = db.prepare(
        'INSERT OR IGNORE INTO instance_guards (contract_id, environment, policy_id, guardian_id, system_id) VALUES (?, ?, ?, ?, ?)',
      );
      const rows = db
        .prepare('SELECT system_id, environment, descriptor FROM instances')
        .all() as Array<{ system_id: string; environment: string; descriptor: string }>;
      for (const row of rows) {
        let descriptor: unknown;
        try {
          descriptor = JSON.parse(row.descriptor);
        } catch {
          continue;
        }
        if (typeof descriptor !== 'object' || descriptor === null) continue;
        const where = { systemId: row.system_id, environment: row.environment };
        for (const g of guardedContracts(descriptor as Record<string, unknown>, where)) {
          insert.run(g.contractId, g.environment, g.policyId, g.guardianId, g.systemId);
        }
      }
    },
  },
];
