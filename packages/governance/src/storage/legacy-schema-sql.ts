/**
 * The tables both legacy lists (legacy-postgres-migrations.ts, legacy-sqlite-migrations.ts)
 * created, written once with each dialect's column types, so that the two lists visibly build the
 * same schema. The text each list runs is exactly what it ran when released: never edit it.
 */

/** The column types a legacy list wrote where the dialects differ. */
export interface LegacyColumnTypes {
  /** A JSON document kept as written. */
  json: string;
  /** The auto-incremented key of `evaluation_results`. */
  serialKey: string;
  boolean: string;
  bigint: string;
}

/** PostgreSQL: json (not jsonb) keeps documents byte for byte and accepts every string JSON can carry. */
export const POSTGRES_TYPES: LegacyColumnTypes = {
  json: 'JSON',
  serialKey: 'BIGSERIAL PRIMARY KEY',
  boolean: 'BOOLEAN',
  bigint: 'BIGINT',
};

/** SQLite: documents as text, booleans and large integers as its INTEGER. */
export const SQLITE_TYPES: LegacyColumnTypes = {
  json: 'TEXT',
  serialKey: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  boolean: 'INTEGER',
  bigint: 'INTEGER',
};

/** Version 1 of both lists: templates, policies, plans, instances and evaluation results. */
export function initialSchemaSql(t: LegacyColumnTypes): string {
  return `
CREATE TABLE templates (
  id TEXT PRIMARY KEY,
  document ${t.json} NOT NULL,
  registered_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE policies (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  trigger TEXT NOT NULL CHECK (trigger IN ('active', 'passive')),
  status TEXT NOT NULL CHECK (status IN ('draft', 'grace', 'enabled')),
  environment TEXT,
  template_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX policies_template_resource_type ON policies (template_id, resource_type)
  WHERE template_id IS NOT NULL;
CREATE INDEX policies_resource_type ON policies (resource_type);
CREATE TABLE plans (
  id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  document ${t.json} NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX plans_status ON plans (status);
CREATE TABLE instances (
  system_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  descriptor ${t.json} NOT NULL,
  deployed_at TEXT NOT NULL,
  plan_id TEXT NOT NULL,
  PRIMARY KEY (system_id, environment)
);
CREATE TABLE evaluation_results (
  seq ${t.serialKey},
  contract_id TEXT NOT NULL,
  policy_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  received_at TEXT NOT NULL,
  submission ${t.json} NOT NULL,
  details_conform ${t.boolean} NOT NULL
);
CREATE INDEX evaluation_results_contract ON evaluation_results (contract_id, environment, seq);
CREATE TABLE current_results (
  contract_id TEXT NOT NULL,
  policy_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  seq ${t.bigint} NOT NULL,
  PRIMARY KEY (contract_id, policy_id, environment)
);
`;
}

/** The component index of instances (its rows are filled per dialect). */
export const INSTANCE_COMPONENTS_SQL = `CREATE TABLE instance_components (
  component_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  system_id TEXT NOT NULL,
  PRIMARY KEY (component_id, environment, system_id)
);
CREATE INDEX instance_components_instance ON instance_components (system_id, environment);
`;

/** The index of guarded contracts, the service leases and the owner of a plan. */
export function guardsAndLeasesSql(t: LegacyColumnTypes): string {
  return `CREATE TABLE instance_guards (
  contract_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  policy_id TEXT NOT NULL,
  guardian_id TEXT NOT NULL,
  system_id TEXT NOT NULL,
  PRIMARY KEY (contract_id, environment, policy_id, guardian_id, system_id)
);
CREATE INDEX instance_guards_instance ON instance_guards (system_id, environment);
CREATE TABLE service_leases (
  instance_id TEXT PRIMARY KEY,
  expires_at ${t.bigint} NOT NULL
);
ALTER TABLE plans ADD COLUMN owner TEXT;
`;
}
