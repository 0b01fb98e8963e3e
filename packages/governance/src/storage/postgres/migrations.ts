/** Schema versions of the PostgreSQL store, applied in order at open. Never edit a released entry. */
export const POSTGRES_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'initial schema',
    // json (not jsonb) keeps documents byte for byte and accepts every string JSON can carry.
    sql: `
CREATE TABLE templates (
  id TEXT PRIMARY KEY,
  document JSON NOT NULL,
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
  document JSON NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX plans_status ON plans (status);
CREATE TABLE instances (
  system_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  descriptor JSON NOT NULL,
  deployed_at TEXT NOT NULL,
  plan_id TEXT NOT NULL,
  PRIMARY KEY (system_id, environment)
);
CREATE TABLE evaluation_results (
  seq BIGSERIAL PRIMARY KEY,
  contract_id TEXT NOT NULL,
  policy_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  received_at TEXT NOT NULL,
  submission JSON NOT NULL,
  details_conform BOOLEAN NOT NULL
);
CREATE INDEX evaluation_results_contract ON evaluation_results (contract_id, environment, seq);
CREATE TABLE current_results (
  contract_id TEXT NOT NULL,
  policy_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  seq BIGINT NOT NULL,
  PRIMARY KEY (contract_id, policy_id, environment)
);
`,
  },
];
