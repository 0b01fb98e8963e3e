/** Schema versions of the SQLite store, applied in order at open. Never edit a released entry. */
export const SQLITE_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE templates (
  id TEXT PRIMARY KEY,
  document TEXT NOT NULL,
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
  document TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX plans_status ON plans (status);
CREATE TABLE instances (
  system_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  descriptor TEXT NOT NULL,
  deployed_at TEXT NOT NULL,
  plan_id TEXT NOT NULL,
  PRIMARY KEY (system_id, environment)
);
CREATE TABLE evaluation_results (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  contract_id TEXT NOT NULL,
  policy_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  received_at TEXT NOT NULL,
  submission TEXT NOT NULL,
  details_conform INTEGER NOT NULL
);
CREATE INDEX evaluation_results_contract ON evaluation_results (contract_id, environment, seq);
CREATE TABLE current_results (
  contract_id TEXT NOT NULL,
  policy_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (contract_id, policy_id, environment)
);
`,
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
];
