import type { ColumnType, Generated } from 'kysely';

/**
 * A JSON document column: `json` on PostgreSQL (read back parsed), `TEXT` on SQLite (read back as
 * text). Written as JSON text on both; read through `StoreContext.readJson`.
 */
type JsonColumn = ColumnType<unknown, string, string>;
/** `BOOLEAN` on PostgreSQL, `INTEGER` 0/1 on SQLite; see `StoreContext.bool`. */
type BoolColumn = ColumnType<boolean | number, boolean | number, boolean | number>;
/** `BIGINT` on PostgreSQL (read back as text by pg), `INTEGER` on SQLite. */
type BigIntColumn<W = number> = ColumnType<number | string, W, W>;

/**
 * The governance tables as the repositories see them (both dialects; the schema is built by
 * governance-migrations.ts).
 *
 * @example
 * const db: Kysely<GovernanceTables> = handle.db;
 */
export interface GovernanceTables {
  templates: {
    id: string;
    environment: string;
    document: JsonColumn;
    registered_at: string;
    updated_at: string;
  };
  policies: {
    id: string;
    name: string;
    description: string;
    resource_type: string;
    trigger: string;
    status: string;
    environment: string | null;
    template_id: string | null;
    created_at: string;
    updated_at: string;
  };
  plans: {
    id: string;
    status: string;
    document: JsonColumn;
    created_at: string;
    updated_at: string;
    environment: string;
    owner: string | null;
  };
  service_leases: { instance_id: string; expires_at: BigIntColumn };
  instances: {
    system_id: string;
    environment: string;
    descriptor: JsonColumn;
    deployed_at: string;
    plan_id: string;
  };
  instance_components: { component_id: string; environment: string; system_id: string };
  instance_guards: {
    contract_id: string;
    environment: string;
    policy_id: string;
    guardian_id: string;
    system_id: string;
  };
  evaluation_results: {
    seq: Generated<number | string>;
    contract_id: string;
    policy_id: string;
    environment: string;
    received_at: string;
    submission: JsonColumn;
    details_conform: BoolColumn;
    status: string;
  };
  current_results: {
    contract_id: string;
    policy_id: string;
    environment: string;
    seq: BigIntColumn;
    status: string;
    received_at: string;
  };
}
