import type { ComplianceState } from '@dcg/contract-schema';
import pg from 'pg';
import { GovernanceError } from '../../errors';
import type { Page } from '../../page';
import type { Policy, PolicyFilter } from '../../policy';
import type { ProvisioningPlan } from '../../provisioning-plan';
import type {
  CurrentResultStatus,
  GovernanceStore,
  InstanceRecord,
  NewEvaluationResult,
  PlanFilter,
  StoredEvaluationResult,
  TemplatePolicyDraft,
  TemplateRecord,
} from '../../repositories';
import { componentIds } from '../component-ids';
import {
  assertStorableTemplate,
  assertStorableText,
  clampPaging,
  type PolicyRow,
  policyFromRow,
  templatePolicy,
} from '../row-mapping';
import { POSTGRES_MIGRATIONS } from './migrations';

/**
 * Options of {@link openPostgresStore}.
 *
 * @example
 * const options: PostgresStoreOptions = { connectionString: process.env.DATABASE_URL!, schema: 'governance' };
 */
export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema holding the tables (created when missing); default `public`. */
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

interface ResultRow {
  seq: string | number;
  contract_id: string;
  policy_id: string;
  environment: string;
  received_at: string;
  submission: Record<string, unknown>;
  details_conform: boolean;
  status: ComplianceState;
}

const resultFromRow = (row: ResultRow): StoredEvaluationResult => ({
  seq: Number(row.seq),
  contractId: row.contract_id,
  policyId: row.policy_id,
  environment: row.environment,
  receivedAt: row.received_at,
  submission: row.submission,
  detailsConform: row.details_conform,
  status: row.status,
});

interface InstanceRow {
  system_id: string;
  environment: string;
  descriptor: Record<string, unknown>;
  deployed_at: string;
  plan_id: string;
}

const instanceFromRow = (row: InstanceRow): InstanceRecord => ({
  systemId: row.system_id,
  environment: row.environment,
  descriptor: row.descriptor,
  deployedAt: row.deployed_at,
  planId: row.plan_id,
});

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface PendingAppend {
  result: NewEvaluationResult;
  resolve: (stored: StoredEvaluationResult) => void;
  reject: (error: unknown) => void;
}

const MAX_BATCH = 256;
const MAX_CONCURRENT_FLUSHES = 4;

/** Governance storage in PostgreSQL (`pg` pool). */
class PostgresStore implements GovernanceStore {
  readonly kind = 'postgres';
  private closed = false;
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  private inFlight = 0;

  constructor(private readonly pool: pg.Pool) {}

  private async run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new GovernanceError('storage_failure', 'The store is closed');
    try {
      return await fn();
    } catch (error) {
      if (GovernanceError.is(error)) throw error;
      if ((error as { code?: string }).code === '22021') {
        // A NUL character in a lookup key: no stored row can match it.
        throw new GovernanceError('invalid_input', 'Text must not contain the NUL character', {
          cause: error,
        });
      }
      throw new GovernanceError('storage_failure', `PostgreSQL failed to ${what}`, {
        cause: error,
      });
    }
  }

  private async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async ping(): Promise<void> {
    await this.run('answer', () => this.pool.query('SELECT 1'));
  }

  async getTemplate(id: string): Promise<TemplateRecord | null> {
    return this.run('read a template', async () => {
      const { rows } = await this.pool.query('SELECT * FROM templates WHERE id = $1', [id]);
      const row = rows[0] as
        | {
            id: string;
            document: Record<string, unknown>;
            registered_at: string;
            updated_at: string;
          }
        | undefined;
      return row
        ? {
            id: row.id,
            document: row.document,
            registeredAt: row.registered_at,
            updatedAt: row.updated_at,
          }
        : null;
    });
  }

  async saveTemplate(
    document: Record<string, unknown> & { id: string },
    drafts: TemplatePolicyDraft[],
    now: string,
  ): Promise<{ template: TemplateRecord; created: Policy[]; updated: Policy[] }> {
    assertStorableTemplate(document.id, drafts);
    return this.run('save a template', () =>
      this.transaction(async (client) => {
        const { rows } = await client.query(
          `INSERT INTO templates (id, document, registered_at, updated_at) VALUES ($1, $2, $3, $3)
           ON CONFLICT (id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at
           RETURNING registered_at`,
          [document.id, JSON.stringify(document), now],
        );
        // Serialise concurrent registrations of one template so policies are created once.
        await client.query('SELECT 1 FROM templates WHERE id = $1 FOR UPDATE', [document.id]);
        const created: Policy[] = [];
        const updated: Policy[] = [];
        for (const draft of drafts) {
          const existing = await client.query(
            'SELECT * FROM policies WHERE template_id = $1 AND resource_type = $2',
            [document.id, draft.resourceType],
          );
          const row = existing.rows[0] as PolicyRow | undefined;
          const policy = templatePolicy(document.id, draft, now, row);
          if (row) {
            await client.query(
              'UPDATE policies SET name = $1, description = $2, updated_at = $3 WHERE id = $4',
              [draft.name, draft.description, now, row.id],
            );
            updated.push(policy);
          } else {
            await this.insertPolicy(client, policy);
            created.push(policy);
          }
        }
        return {
          template: {
            id: document.id,
            document,
            registeredAt: (rows[0] as { registered_at: string }).registered_at,
            updatedAt: now,
          },
          created,
          updated,
        };
      }),
    );
  }

  private async insertPolicy(client: pg.Pool | pg.PoolClient, policy: Policy): Promise<void> {
    await client.query(
      `INSERT INTO policies (id, name, description, resource_type, trigger, status, environment, template_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        policy.id,
        policy.name,
        policy.description,
        policy.resourceType,
        policy.trigger,
        policy.status,
        policy.environment,
        policy.templateId,
        policy.createdAt,
        policy.updatedAt,
      ],
    );
  }

  async getPolicy(id: string): Promise<Policy | null> {
    return this.run('read a policy', async () => {
      const { rows } = await this.pool.query('SELECT * FROM policies WHERE id = $1', [id]);
      const row = rows[0] as PolicyRow | undefined;
      return row ? policyFromRow(row) : null;
    });
  }

  async getPolicies(ids: readonly string[]): Promise<Policy[]> {
    if (ids.length === 0) return [];
    return this.run('read policies', async () => {
      const { rows } = await this.pool.query('SELECT * FROM policies WHERE id = ANY($1)', [ids]);
      return (rows as PolicyRow[]).map(policyFromRow);
    });
  }

  async createPolicy(policy: Policy): Promise<Policy> {
    assertStorableText({
      id: policy.id,
      name: policy.name,
      description: policy.description,
      resourceType: policy.resourceType,
      environment: policy.environment,
    });
    return this.run('create a policy', async () => {
      try {
        await this.insertPolicy(this.pool, policy);
      } catch (error) {
        if ((error as { code?: string }).code === '23505') {
          throw new GovernanceError('conflict', `A policy with id ${policy.id} already exists`, {
            cause: error,
          });
        }
        throw error;
      }
      return policy;
    });
  }

  async listPolicies(filter: PolicyFilter): Promise<Page<Policy>> {
    return this.run('list policies', async () => {
      const where: string[] = [];
      const params: unknown[] = [];
      const param = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      if (filter.resourceType !== undefined)
        where.push(`resource_type = ${param(filter.resourceType)}`);
      if (filter.trigger !== undefined) where.push(`trigger = ${param(filter.trigger)}`);
      if (filter.status !== undefined) where.push(`status = ${param(filter.status)}`);
      if (filter.environment !== undefined)
        where.push(`(environment IS NULL OR environment = ${param(filter.environment)})`);
      if (filter.templateId !== undefined) where.push(`template_id = ${param(filter.templateId)}`);
      if (filter.text !== undefined && filter.text !== '') {
        const p = param(filter.text);
        // strpos() instead of LIKE: the user's text needs no escaping of % and _.
        where.push(
          `(strpos(lower(id), lower(${p})) > 0 OR strpos(lower(name), lower(${p})) > 0 OR strpos(lower(description), lower(${p})) > 0)`,
        );
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const { limit, offset } = clampPaging(filter.limit, filter.offset);
      const count = await this.pool.query(
        `SELECT count(*)::int AS n FROM policies ${clause}`,
        params,
      );
      const { rows } = await this.pool.query(
        `SELECT * FROM policies ${clause} ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`,
        params,
      );
      return {
        data: (rows as PolicyRow[]).map(policyFromRow),
        meta: { pagination: { limit, offset, total: (count.rows[0] as { n: number }).n } },
      };
    });
  }

  async createPlan(plan: ProvisioningPlan): Promise<void> {
    await this.run('create a plan', () =>
      this.pool.query(
        'INSERT INTO plans (id, status, document, created_at, updated_at, environment) VALUES ($1, $2, $3, $4, $5, $6)',
        [
          plan.id,
          plan.status,
          JSON.stringify(plan),
          plan.createdAt,
          plan.updatedAt,
          plan.environment,
        ],
      ),
    );
  }

  async updatePlan(plan: ProvisioningPlan): Promise<void> {
    await this.run('update a plan', async () => {
      const result = await this.pool.query(
        'UPDATE plans SET status = $1, document = $2, updated_at = $3 WHERE id = $4',
        [plan.status, JSON.stringify(plan), plan.updatedAt, plan.id],
      );
      if (result.rowCount === 0) throw new GovernanceError('not_found', `No plan ${plan.id}`);
    });
  }

  async getPlan(id: string): Promise<ProvisioningPlan | null> {
    return this.run('read a plan', async () => {
      const { rows } = await this.pool.query('SELECT document FROM plans WHERE id = $1', [id]);
      return (rows[0] as { document: ProvisioningPlan } | undefined)?.document ?? null;
    });
  }

  async listRunningPlans(): Promise<ProvisioningPlan[]> {
    return this.run('list running plans', async () => {
      const { rows } = await this.pool.query(
        "SELECT document FROM plans WHERE status = 'running' ORDER BY created_at",
      );
      return (rows as Array<{ document: ProvisioningPlan }>).map((r) => r.document);
    });
  }

  async listPlans(filter: PlanFilter): Promise<Page<ProvisioningPlan>> {
    return this.run('list plans', async () => {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.status !== undefined) {
        params.push(filter.status);
        where.push(`status = $${params.length}`);
      }
      if (filter.environment !== undefined) {
        params.push(filter.environment);
        where.push(`environment = $${params.length}`);
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const { limit, offset } = clampPaging(filter.limit, filter.offset);
      const count = await this.pool.query(`SELECT count(*)::int AS n FROM plans ${clause}`, params);
      const { rows } = await this.pool.query(
        `SELECT document FROM plans ${clause} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
        params,
      );
      return {
        data: (rows as Array<{ document: ProvisioningPlan }>).map((r) => r.document),
        meta: { pagination: { limit, offset, total: (count.rows[0] as { n: number }).n } },
      };
    });
  }

  async putInstance(instance: InstanceRecord): Promise<void> {
    assertStorableText({ systemId: instance.systemId, environment: instance.environment });
    // One statement: the instance and its component index change together.
    await this.run('store an instance', () =>
      this.pool.query(
        `WITH upsert AS (
           INSERT INTO instances (system_id, environment, descriptor, deployed_at, plan_id) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (system_id, environment) DO UPDATE SET descriptor = excluded.descriptor,
             deployed_at = excluded.deployed_at, plan_id = excluded.plan_id
         ), dropped AS (
           DELETE FROM instance_components WHERE system_id = $1 AND environment = $2
             AND NOT (component_id = ANY($6::text[]))
         )
         INSERT INTO instance_components (component_id, environment, system_id)
         SELECT DISTINCT id, $2, $1 FROM unnest($6::text[]) AS t(id)
         ON CONFLICT DO NOTHING`,
        [
          instance.systemId,
          instance.environment,
          JSON.stringify(instance.descriptor),
          instance.deployedAt,
          instance.planId,
          componentIds(instance.descriptor),
        ],
      ),
    );
  }

  async deleteInstance(systemId: string, environment: string): Promise<boolean> {
    return this.run('delete an instance', async () => {
      const result = await this.pool.query(
        `WITH dropped AS (
           DELETE FROM instance_components WHERE system_id = $1 AND environment = $2
         )
         DELETE FROM instances WHERE system_id = $1 AND environment = $2`,
        [systemId, environment],
      );
      return (result.rowCount ?? 0) > 0;
    });
  }

  async findInstancesWithComponent(
    componentId: string,
    environment?: string,
  ): Promise<InstanceRecord[]> {
    if (componentId.includes('\u0000')) return [];
    return this.run('find instances', async () => {
      const { rows } = await this.pool.query(
        `SELECT i.* FROM instance_components c
         JOIN instances i ON i.system_id = c.system_id AND i.environment = c.environment
         WHERE c.component_id = $1 AND ($2::text IS NULL OR c.environment = $2)
         ORDER BY i.environment, i.system_id`,
        [componentId, environment ?? null],
      );
      return (rows as InstanceRow[]).map(instanceFromRow);
    });
  }

  async getInstance(systemId: string, environment: string): Promise<InstanceRecord | null> {
    return this.run('read an instance', async () => {
      const { rows } = await this.pool.query(
        'SELECT * FROM instances WHERE system_id = $1 AND environment = $2',
        [systemId, environment],
      );
      const row = rows[0] as InstanceRow | undefined;
      return row ? instanceFromRow(row) : null;
    });
  }

  async listInstances(filter: {
    environment?: string;
    systemId?: string;
  }): Promise<InstanceRecord[]> {
    return this.run('list instances', async () => {
      const where: string[] = [];
      const params: string[] = [];
      if (filter.environment !== undefined) {
        params.push(filter.environment);
        where.push(`environment = $${params.length}`);
      }
      if (filter.systemId !== undefined) {
        params.push(filter.systemId);
        where.push(`system_id = $${params.length}`);
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const { rows } = await this.pool.query(
        `SELECT * FROM instances ${clause} ORDER BY system_id, environment`,
        params,
      );
      return (rows as InstanceRow[]).map(instanceFromRow);
    });
  }

  appendResult(result: NewEvaluationResult): Promise<StoredEvaluationResult> {
    try {
      assertStorableText({
        contractId: result.contractId,
        policyId: result.policyId,
        environment: result.environment,
      });
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.closed) {
      return Promise.reject(new GovernanceError('storage_failure', 'The store is closed'));
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ result, resolve, reject });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (
      this.flushScheduled ||
      this.pending.length === 0 ||
      this.inFlight >= MAX_CONCURRENT_FLUSHES
    ) {
      return;
    }
    this.flushScheduled = true;
    // Submissions that arrive together share one statement and one commit (group commit).
    setImmediate(() => {
      this.flushScheduled = false;
      const batch = this.pending.splice(0, MAX_BATCH);
      if (batch.length === 0) return;
      this.inFlight++;
      this.flush(batch).finally(() => {
        this.inFlight--;
        this.scheduleFlush();
      });
      this.scheduleFlush();
    });
  }

  private async flush(batch: PendingAppend[]): Promise<void> {
    try {
      const stored = await this.insertResults(batch.map((p) => p.result));
      for (const [i, p] of batch.entries()) p.resolve(stored[i]!);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(
          new GovernanceError('storage_failure', 'PostgreSQL failed to store a result', {
            cause: error,
          }),
        );
        return;
      }
      // One bad row must not fail its neighbours: retry one by one.
      await Promise.all(batch.map((p) => this.flush([p])));
    }
  }

  /**
   * Inserts results in one statement, one implicit transaction: the history rows and the current
   * pointers commit together. Sequence numbers are drawn first (in input order) so each caller
   * learns its own; the pointer only moves forward, so racing submissions leave the latest current.
   */
  private async insertResults(results: NewEvaluationResult[]): Promise<StoredEvaluationResult[]> {
    const { rows } = await this.pool.query(
      `WITH input AS MATERIALIZED (
         SELECT t.*, nextval(pg_get_serial_sequence('evaluation_results', 'seq')) AS seq
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[])
           WITH ORDINALITY AS t(contract_id, policy_id, environment, received_at, submission, details_conform, status, ord)
         ORDER BY t.ord
       ), inserted AS (
         INSERT INTO evaluation_results (seq, contract_id, policy_id, environment, received_at, submission, details_conform, status)
         SELECT seq, contract_id, policy_id, environment, received_at, submission::json, details_conform, status FROM input
       ), pointer AS (
         INSERT INTO current_results (contract_id, policy_id, environment, seq, status, received_at)
         SELECT DISTINCT ON (contract_id, policy_id, environment) contract_id, policy_id, environment, seq, status, received_at
         FROM input ORDER BY contract_id, policy_id, environment, seq DESC
         ON CONFLICT (contract_id, policy_id, environment) DO UPDATE SET seq = excluded.seq,
           status = excluded.status, received_at = excluded.received_at
         WHERE excluded.seq > current_results.seq
       )
       SELECT seq FROM input ORDER BY ord`,
      [
        results.map((r) => r.contractId),
        results.map((r) => r.policyId),
        results.map((r) => r.environment),
        results.map((r) => r.receivedAt),
        results.map((r) => r.submissionJson ?? JSON.stringify(r.submission)),
        results.map((r) => r.detailsConform),
        results.map((r) => r.status),
      ],
    );
    return results.map((r, i) => ({ ...r, seq: Number((rows[i] as { seq: string }).seq) }));
  }

  async getCurrentResult(
    contractId: string,
    environment: string,
    policyId?: string,
  ): Promise<StoredEvaluationResult | null> {
    return this.run('read a result', async () => {
      const { rows } =
        policyId === undefined
          ? await this.pool.query(
              `SELECT r.* FROM current_results c JOIN evaluation_results r ON r.seq = c.seq
               WHERE c.contract_id = $1 AND c.environment = $2 ORDER BY c.seq DESC LIMIT 1`,
              [contractId, environment],
            )
          : await this.pool.query(
              `SELECT r.* FROM current_results c JOIN evaluation_results r ON r.seq = c.seq
               WHERE c.contract_id = $1 AND c.environment = $2 AND c.policy_id = $3`,
              [contractId, environment, policyId],
            );
      const row = rows[0] as ResultRow | undefined;
      return row ? resultFromRow(row) : null;
    });
  }

  async getCurrentStatuses(
    contractIds: readonly string[],
    environment: string,
  ): Promise<CurrentResultStatus[]> {
    // Text with NUL cannot be stored, so no result can match it; PostgreSQL would refuse the query.
    const ids = contractIds.filter((id) => !id.includes('\u0000'));
    if (ids.length === 0 || environment.includes('\u0000')) return [];
    return this.run('read statuses', async () => {
      const { rows } = await this.pool.query(
        `SELECT DISTINCT ON (contract_id) contract_id, policy_id, seq, status, received_at
         FROM current_results WHERE environment = $1 AND contract_id = ANY($2::text[])
         ORDER BY contract_id, seq DESC`,
        [environment, ids],
      );
      return (
        rows as Array<{
          contract_id: string;
          policy_id: string;
          seq: string;
          status: ComplianceState;
          received_at: string;
        }>
      ).map((row) => ({
        contractId: row.contract_id,
        policyId: row.policy_id,
        seq: Number(row.seq),
        status: row.status,
        receivedAt: row.received_at,
      }));
    });
  }

  async listResultHistory(
    contractId: string,
    filter: { environment?: string; policyId?: string; limit: number; offset: number },
  ): Promise<Page<StoredEvaluationResult>> {
    return this.run('list results', async () => {
      const params: unknown[] = [contractId];
      const where = ['contract_id = $1'];
      if (filter.environment !== undefined) {
        params.push(filter.environment);
        where.push(`environment = $${params.length}`);
      }
      if (filter.policyId !== undefined) {
        params.push(filter.policyId);
        where.push(`policy_id = $${params.length}`);
      }
      const clause = `WHERE ${where.join(' AND ')}`;
      const { limit, offset } = clampPaging(filter.limit, filter.offset);
      const count = await this.pool.query(
        `SELECT count(*)::int AS n FROM evaluation_results ${clause}`,
        params,
      );
      const { rows } = await this.pool.query(
        `SELECT * FROM evaluation_results ${clause} ORDER BY seq DESC LIMIT ${limit} OFFSET ${offset}`,
        params,
      );
      return {
        data: (rows as ResultRow[]).map(resultFromRow),
        meta: { pagination: { limit, offset, total: (count.rows[0] as { n: number }).n } },
      };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Acknowledge what is queued or in flight before closing: nothing accepted may be dropped.
    while (this.pending.length > 0 || this.inFlight > 0 || this.flushScheduled) {
      this.scheduleFlush();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    this.closed = true;
    await this.pool.end();
  }
}

async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Several app instances may start at once: one migrates, the others wait.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('dcg-governance-migrations'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const { rows } = await client.query('SELECT version FROM schema_migrations');
    const applied = new Set((rows as Array<{ version: number }>).map((r) => r.version));
    for (const migration of POSTGRES_MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [migration.version, migration.name, new Date().toISOString()],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Opens the PostgreSQL governance store and runs its migrations.
 *
 * @example
 * import { openPostgresStore } from '@dcg/governance/postgres';
 * const store = await openPostgresStore({ connectionString: process.env.DATABASE_URL! });
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<GovernanceStore> {
  const schema = options.schema ?? 'public';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new GovernanceError('invalid_input', `Invalid PostgreSQL schema name: ${schema}`);
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    options: `-c search_path=${schema}`,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    await migrate(pool, schema);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new GovernanceError(
      'storage_failure',
      `Cannot open the PostgreSQL database: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return new PostgresStore(pool);
}
