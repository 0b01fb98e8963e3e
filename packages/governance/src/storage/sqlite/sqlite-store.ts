import { rmSync } from 'node:fs';
import type { ComplianceState } from '@dcg/contract-schema';
import Database from 'better-sqlite3';
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
import { SQLITE_MIGRATIONS } from './migrations';
import { type ResultApplier, startResultApplier } from './result-applier';
import { type JournalRecord, journalLine, ResultJournal } from './result-journal';
import { lockStoreFile } from './store-lock';
import { startWalCheckpointer } from './wal-checkpointer';

/**
 * Options of {@link openSqliteStore}.
 *
 * @example
 * const options: SqliteStoreOptions = { file: '/var/lib/dcg/governance.db', synchronous: 'FULL' };
 */
export interface SqliteStoreOptions {
  /** Path of the database file (`:memory:` for a throw-away store). */
  file: string;
  /**
   * `NORMAL` (default, WAL mode): a write is in the WAL file (an evaluation result: in the result
   * journal) before it is acknowledged, so it survives a crash or `kill -9` of the process; an OS
   * crash or power loss may lose the latest ones. `FULL` also syncs the WAL and the journal to
   * disk before acknowledging: power-loss safe, at the price of one fsync per (group) commit.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /**
   * Size above which the WAL file is checkpointed whole and emptied (default 64 MiB). Under
   * sustained writes passive checkpoints never catch up, and the WAL would otherwise grow forever.
   */
  walLimitBytes?: number;
}

/** One evaluation result row; the journal's worker runs the same statement. */
const INSERT_RESULT_SQL = `INSERT INTO evaluation_results
  (seq, contract_id, policy_id, environment, received_at, submission, details_conform, status)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

interface ResultRow {
  seq: number;
  contract_id: string;
  policy_id: string;
  environment: string;
  received_at: string;
  submission: string;
  details_conform: number;
  status: ComplianceState;
}

const resultFromRow = (row: ResultRow): StoredEvaluationResult => ({
  seq: row.seq,
  contractId: row.contract_id,
  policyId: row.policy_id,
  environment: row.environment,
  receivedAt: row.received_at,
  submission: JSON.parse(row.submission) as Record<string, unknown>,
  detailsConform: row.details_conform === 1,
  status: row.status,
});

/** A result waiting for the next group commit; it is acknowledged (resolved) after it. */
interface QueuedAppend {
  record: JournalRecord;
  stored: StoredEvaluationResult;
  resolve: (stored: StoredEvaluationResult) => void;
  reject: (error: unknown) => void;
}

/** Journaled results are handed to the tables after this delay, or at once past APPLY_BATCH. */
const APPLY_DELAY_MS = 25;
const APPLY_BATCH = 2048;

/** A closed journal generation on its way to the tables. */
interface SealedGeneration {
  generation: number;
  count: number;
}

/**
 * What a file-backed store owns besides the database: the lock that makes it the file's only
 * process, the journal files and the thread that moves them to the tables.
 */
interface JournalSink {
  lock: { release(): void };
  journal: ResultJournal;
  applier: ResultApplier;
  /** Starts a new applier thread, should the current one stop. */
  startApplier: () => Promise<ResultApplier>;
}
/** While SQLite refuses them, journaled results are retried this often… */
const APPLY_RETRY_MS = 1000;
/** …and new submissions are refused once this many wait (the journal would grow without end). */
const MAX_UNAPPLIED = 100_000;

function migrate(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map(
      (r) => r.version,
    ),
  );
  for (const migration of SQLITE_MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }).immediate();
  }
}

/**
 * Governance storage in one SQLite file (WAL mode), written by one process.
 *
 * Evaluation results are the hot write path. Results that arrive together are appended to the
 * result journal (`<file>.results-journal.<n>`) in one write (group commit) and each is
 * acknowledged once that write returns (and is synced, with `FULL`): the journal then holds it
 * durably. Every few milliseconds the journal generation is sealed and a worker thread inserts it
 * into the tables in one transaction; a read of results first waits until everything
 * acknowledged is there. At open, what the journal still holds is moved into the tables first. A
 * `:memory:` store has no journal: its group commit writes the tables directly.
 */
class SqliteStore implements GovernanceStore {
  readonly kind = 'sqlite';
  private readonly db: Database.Database;
  private queued: QueuedAppend[] = [];
  private flushScheduled = false;
  /** Results acknowledged in the open journal generation, not yet handed to the tables. */
  private pendingCount = 0;
  /** Sealed generations, oldest first; the first is the one being inserted. */
  private sealed: SealedGeneration[] = [];
  private draining: Promise<void> | undefined;
  /** With `FULL`: the journal sync in flight; new groups gather until it settles. */
  private syncing: Promise<void> | undefined;
  /** Hand-overs asked for during a sync: they go first once it settles. */
  private handOverWaiters: Array<(drained: Promise<void>) => void> = [];
  private applyTimer: NodeJS.Timeout | undefined;
  private applyFailure: unknown;
  private nextSeq: number;
  private closed = false;
  /** The journal and its worker; none for `:memory:`, whose group commit writes the tables. */
  private sink: JournalSink | undefined;
  private readonly stmts;
  private readonly insertRecords: (records: JournalRecord[]) => void;
  private readonly writeInstance: (instance: InstanceRecord) => void;
  private readonly removeInstance: (systemId: string, environment: string) => boolean;

  constructor(
    db: Database.Database,
    private readonly checkpointer: { close(): Promise<void> } | undefined,
  ) {
    this.db = db;
    this.stmts = {
      getTemplate: db.prepare('SELECT * FROM templates WHERE id = ?'),
      upsertTemplate: db.prepare(
        `INSERT INTO templates (id, document, registered_at, updated_at) VALUES (@id, @document, @now, @now)
         ON CONFLICT (id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at`,
      ),
      templatePolicy: db.prepare(
        'SELECT * FROM policies WHERE template_id = ? AND resource_type = ?',
      ),
      updateTemplatePolicy: db.prepare(
        'UPDATE policies SET name = ?, description = ?, updated_at = ? WHERE id = ?',
      ),
      insertPolicy: db.prepare(
        `INSERT INTO policies (id, name, description, resource_type, trigger, status, environment, template_id, created_at, updated_at)
         VALUES (@id, @name, @description, @resourceType, @trigger, @status, @environment, @templateId, @createdAt, @updatedAt)`,
      ),
      getPolicy: db.prepare('SELECT * FROM policies WHERE id = ?'),
      insertPlan: db.prepare(
        'INSERT INTO plans (id, status, document, created_at, updated_at, environment) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      updatePlan: db.prepare(
        'UPDATE plans SET status = ?, document = ?, updated_at = ? WHERE id = ?',
      ),
      getPlan: db.prepare('SELECT document FROM plans WHERE id = ?'),
      runningPlans: db.prepare(
        "SELECT document FROM plans WHERE status = 'running' ORDER BY created_at",
      ),
      putInstance: db.prepare(
        `INSERT INTO instances (system_id, environment, descriptor, deployed_at, plan_id) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (system_id, environment) DO UPDATE SET descriptor = excluded.descriptor,
           deployed_at = excluded.deployed_at, plan_id = excluded.plan_id`,
      ),
      deleteInstance: db.prepare('DELETE FROM instances WHERE system_id = ? AND environment = ?'),
      getInstance: db.prepare('SELECT * FROM instances WHERE system_id = ? AND environment = ?'),
      deleteComponents: db.prepare(
        'DELETE FROM instance_components WHERE system_id = ? AND environment = ?',
      ),
      insertComponent: db.prepare(
        'INSERT OR IGNORE INTO instance_components (component_id, environment, system_id) VALUES (?, ?, ?)',
      ),
      instancesWithComponent: db.prepare(
        `SELECT i.* FROM instance_components c
         JOIN instances i ON i.system_id = c.system_id AND i.environment = c.environment
         WHERE c.component_id = ? ORDER BY i.environment, i.system_id`,
      ),
      instancesWithComponentIn: db.prepare(
        `SELECT i.* FROM instance_components c
         JOIN instances i ON i.system_id = c.system_id AND i.environment = c.environment
         WHERE c.component_id = ? AND c.environment = ? ORDER BY i.system_id`,
      ),
      currentStatuses: db.prepare(
        `SELECT contract_id, policy_id, seq, status, received_at FROM current_results
         WHERE environment = ? AND contract_id IN (SELECT value FROM json_each(?))
         ORDER BY seq`,
      ),
      insertResult: db.prepare(INSERT_RESULT_SQL),
      lastSeq: db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'evaluation_results'"),
      currentAny: db.prepare(
        `SELECT r.* FROM current_results c JOIN evaluation_results r ON r.seq = c.seq
         WHERE c.contract_id = ? AND c.environment = ? ORDER BY c.seq DESC LIMIT 1`,
      ),
      currentFor: db.prepare(
        `SELECT r.* FROM current_results c JOIN evaluation_results r ON r.seq = c.seq
         WHERE c.contract_id = ? AND c.environment = ? AND c.policy_id = ?`,
      ),
    };
    const insertOne = (record: JournalRecord): void => {
      // The trigger of migration 2 moves the current pointer in the same statement.
      this.stmts.insertResult.run(
        record.seq,
        record.contractId,
        record.policyId,
        record.environment,
        record.receivedAt,
        record.submissionJson,
        record.detailsConform ? 1 : 0,
        record.status,
      );
    };
    const insertMany = db.transaction((records: JournalRecord[]) => {
      for (const record of records) insertOne(record);
    });
    // A single INSERT commits on its own (its trigger included): BEGIN and COMMIT statements would
    // only add work to a group of one.
    this.insertRecords = (records) =>
      records.length === 1 ? insertOne(records[0]!) : insertMany(records);
    // Sequence numbers are handed out here, in arrival order, before the row exists: the journal
    // needs them. sqlite_sequence remembers the highest ever used, deleted rows included.
    this.nextSeq = ((this.stmts.lastSeq.get() as { seq: number } | undefined)?.seq ?? 0) + 1;
    // The instance and its component index change together.
    this.writeInstance = db.transaction((instance: InstanceRecord) => {
      this.stmts.putInstance.run(
        instance.systemId,
        instance.environment,
        JSON.stringify(instance.descriptor),
        instance.deployedAt,
        instance.planId,
      );
      this.stmts.deleteComponents.run(instance.systemId, instance.environment);
      for (const id of componentIds(instance.descriptor)) {
        this.stmts.insertComponent.run(id, instance.environment, instance.systemId);
      }
    });
    this.removeInstance = db.transaction((systemId: string, environment: string) => {
      this.stmts.deleteComponents.run(systemId, environment);
      return this.stmts.deleteInstance.run(systemId, environment).changes > 0;
    });
  }

  private guard<T>(what: string, fn: () => T): T {
    if (this.closed) throw new GovernanceError('storage_failure', 'The store is closed');
    try {
      return fn();
    } catch (error) {
      if (GovernanceError.is(error)) throw error;
      throw new GovernanceError('storage_failure', `SQLite failed to ${what}`, { cause: error });
    }
  }

  /** Acknowledged results not yet in the tables: the open generation's and the sealed ones'. */
  private get unappliedCount(): number {
    let count = this.pendingCount;
    for (const generation of this.sealed) count += generation.count;
    return count;
  }

  async ping(): Promise<void> {
    this.guard('answer', () => this.db.prepare('SELECT 1').get());
    // Not ready while acknowledged results cannot reach the tables (reads of results would fail).
    if (this.applyFailure !== undefined && this.sealed.length > 0) {
      throw new GovernanceError(
        'storage_failure',
        `SQLite is not taking ${this.unappliedCount} acknowledged results (they are safe in ${this.sink?.journal.base}.*)`,
        { cause: this.applyFailure },
      );
    }
  }

  async getTemplate(id: string): Promise<TemplateRecord | null> {
    return this.guard('read a template', () => {
      const row = this.stmts.getTemplate.get(id) as
        | { id: string; document: string; registered_at: string; updated_at: string }
        | undefined;
      return row
        ? {
            id: row.id,
            document: JSON.parse(row.document) as Record<string, unknown>,
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
    return this.guard('save a template', () =>
      this.db
        .transaction(() => {
          this.stmts.upsertTemplate.run({
            id: document.id,
            document: JSON.stringify(document),
            now,
          });
          const created: Policy[] = [];
          const updated: Policy[] = [];
          for (const draft of drafts) {
            const existing = this.stmts.templatePolicy.get(document.id, draft.resourceType) as
              | PolicyRow
              | undefined;
            const policy = templatePolicy(document.id, draft, now, existing);
            if (existing) {
              this.stmts.updateTemplatePolicy.run(draft.name, draft.description, now, existing.id);
              updated.push(policy);
            } else {
              this.stmts.insertPolicy.run(policy);
              created.push(policy);
            }
          }
          const row = this.stmts.getTemplate.get(document.id) as { registered_at: string };
          return {
            template: {
              id: document.id,
              document,
              registeredAt: row.registered_at,
              updatedAt: now,
            },
            created,
            updated,
          };
        })
        .immediate(),
    );
  }

  async getPolicy(id: string): Promise<Policy | null> {
    return this.guard('read a policy', () => {
      const row = this.stmts.getPolicy.get(id) as PolicyRow | undefined;
      return row ? policyFromRow(row) : null;
    });
  }

  async getPolicies(ids: readonly string[]): Promise<Policy[]> {
    if (ids.length === 0) return [];
    return this.guard('read policies', () => {
      const rows = this.db
        .prepare(`SELECT * FROM policies WHERE id IN (${ids.map(() => '?').join(',')})`)
        .all(...ids) as PolicyRow[];
      return rows.map(policyFromRow);
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
    return this.guard('create a policy', () => {
      try {
        this.stmts.insertPolicy.run(policy);
      } catch (error) {
        if ((error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) {
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
    return this.guard('list policies', () => {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.resourceType !== undefined) {
        where.push('resource_type = ?');
        params.push(filter.resourceType);
      }
      if (filter.trigger !== undefined) {
        where.push('trigger = ?');
        params.push(filter.trigger);
      }
      if (filter.status !== undefined) {
        where.push('status = ?');
        params.push(filter.status);
      }
      if (filter.environment !== undefined) {
        where.push('(environment IS NULL OR environment = ?)');
        params.push(filter.environment);
      }
      if (filter.templateId !== undefined) {
        where.push('template_id = ?');
        params.push(filter.templateId);
      }
      if (filter.text !== undefined && filter.text !== '') {
        // instr() instead of LIKE: the user's text needs no escaping of % and _.
        where.push(
          '(instr(lower(id), lower(?)) > 0 OR instr(lower(name), lower(?)) > 0 OR instr(lower(description), lower(?)) > 0)',
        );
        params.push(filter.text, filter.text, filter.text);
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const { limit, offset } = clampPaging(filter.limit, filter.offset);
      const total = (
        this.db.prepare(`SELECT count(*) AS n FROM policies ${clause}`).get(...params) as {
          n: number;
        }
      ).n;
      const rows = this.db
        .prepare(`SELECT * FROM policies ${clause} ORDER BY created_at, id LIMIT ? OFFSET ?`)
        .all(...params, limit, offset) as PolicyRow[];
      return { data: rows.map(policyFromRow), meta: { pagination: { limit, offset, total } } };
    });
  }

  async createPlan(plan: ProvisioningPlan): Promise<void> {
    this.guard('create a plan', () =>
      this.stmts.insertPlan.run(
        plan.id,
        plan.status,
        JSON.stringify(plan),
        plan.createdAt,
        plan.updatedAt,
        plan.environment,
      ),
    );
  }

  async updatePlan(plan: ProvisioningPlan): Promise<void> {
    this.guard('update a plan', () => {
      const info = this.stmts.updatePlan.run(
        plan.status,
        JSON.stringify(plan),
        plan.updatedAt,
        plan.id,
      );
      if (info.changes === 0) throw new GovernanceError('not_found', `No plan ${plan.id}`);
    });
  }

  async getPlan(id: string): Promise<ProvisioningPlan | null> {
    return this.guard('read a plan', () => {
      const row = this.stmts.getPlan.get(id) as { document: string } | undefined;
      return row ? (JSON.parse(row.document) as ProvisioningPlan) : null;
    });
  }

  async listRunningPlans(): Promise<ProvisioningPlan[]> {
    return this.guard('list running plans', () =>
      (this.stmts.runningPlans.all() as Array<{ document: string }>).map(
        (row) => JSON.parse(row.document) as ProvisioningPlan,
      ),
    );
  }

  async listPlans(filter: PlanFilter): Promise<Page<ProvisioningPlan>> {
    return this.guard('list plans', () => {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.status !== undefined) {
        where.push('status = ?');
        params.push(filter.status);
      }
      if (filter.environment !== undefined) {
        where.push('environment = ?');
        params.push(filter.environment);
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const { limit, offset } = clampPaging(filter.limit, filter.offset);
      const total = (
        this.db.prepare(`SELECT count(*) AS n FROM plans ${clause}`).get(...params) as { n: number }
      ).n;
      const rows = this.db
        .prepare(
          `SELECT document FROM plans ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        )
        .all(...params, limit, offset) as Array<{ document: string }>;
      return {
        data: rows.map((row) => JSON.parse(row.document) as ProvisioningPlan),
        meta: { pagination: { limit, offset, total } },
      };
    });
  }

  async putInstance(instance: InstanceRecord): Promise<void> {
    assertStorableText({ systemId: instance.systemId, environment: instance.environment });
    this.guard('store an instance', () => this.writeInstance(instance));
  }

  async deleteInstance(systemId: string, environment: string): Promise<boolean> {
    return this.guard('delete an instance', () => this.removeInstance(systemId, environment));
  }

  async findInstancesWithComponent(
    componentId: string,
    environment?: string,
  ): Promise<InstanceRecord[]> {
    return this.guard('find instances', () => {
      const rows = (
        environment === undefined
          ? this.stmts.instancesWithComponent.all(componentId)
          : this.stmts.instancesWithComponentIn.all(componentId, environment)
      ) as Array<Parameters<SqliteStore['instanceFromRow']>[0]>;
      return rows.map((row) => this.instanceFromRow(row));
    });
  }

  private instanceFromRow(row: {
    system_id: string;
    environment: string;
    descriptor: string;
    deployed_at: string;
    plan_id: string;
  }): InstanceRecord {
    return {
      systemId: row.system_id,
      environment: row.environment,
      descriptor: JSON.parse(row.descriptor) as Record<string, unknown>,
      deployedAt: row.deployed_at,
      planId: row.plan_id,
    };
  }

  async getInstance(systemId: string, environment: string): Promise<InstanceRecord | null> {
    return this.guard('read an instance', () => {
      const row = this.stmts.getInstance.get(systemId, environment) as
        | Parameters<SqliteStore['instanceFromRow']>[0]
        | undefined;
      return row ? this.instanceFromRow(row) : null;
    });
  }

  async listInstances(filter: {
    environment?: string;
    systemId?: string;
  }): Promise<InstanceRecord[]> {
    return this.guard('list instances', () => {
      const where: string[] = [];
      const params: string[] = [];
      if (filter.environment !== undefined) {
        where.push('environment = ?');
        params.push(filter.environment);
      }
      if (filter.systemId !== undefined) {
        where.push('system_id = ?');
        params.push(filter.systemId);
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const rows = this.db
        .prepare(`SELECT * FROM instances ${clause} ORDER BY system_id, environment`)
        .all(...params) as Array<Parameters<SqliteStore['instanceFromRow']>[0]>;
      return rows.map((row) => this.instanceFromRow(row));
    });
  }

  appendResult(result: NewEvaluationResult): Promise<StoredEvaluationResult> {
    if (this.closed) {
      return Promise.reject(new GovernanceError('storage_failure', 'The store is closed'));
    }
    if (this.unappliedCount >= MAX_UNAPPLIED) {
      return Promise.reject(
        new GovernanceError(
          'storage_failure',
          `SQLite has not taken the last ${this.unappliedCount} results (they are safe in ${this.sink?.journal.base}.*); new ones are refused until it does`,
          { cause: this.applyFailure },
        ),
      );
    }
    let record: JournalRecord;
    try {
      assertStorableText({
        contractId: result.contractId,
        policyId: result.policyId,
        environment: result.environment,
      });
      record = {
        seq: this.nextSeq,
        contractId: result.contractId,
        policyId: result.policyId,
        environment: result.environment,
        receivedAt: result.receivedAt,
        detailsConform: result.detailsConform,
        status: result.status,
        submissionJson: result.submissionJson ?? JSON.stringify(result.submission),
      };
    } catch (error) {
      return Promise.reject(error);
    }
    this.nextSeq++;
    return new Promise((resolve, reject) => {
      const stored: StoredEvaluationResult = {
        seq: record.seq,
        contractId: result.contractId,
        policyId: result.policyId,
        environment: result.environment,
        receivedAt: result.receivedAt,
        submission: result.submission,
        detailsConform: result.detailsConform,
        status: result.status,
      };
      this.queued.push({ record, stored, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // setImmediate runs after pending I/O, so submissions that arrive together share one
        // group commit: one journal write (and one sync with FULL).
        setImmediate(() => this.flush());
      }
    });
  }

  /** The group commit: makes the queued results durable, then acknowledges them. */
  private flush(): void {
    this.flushScheduled = false;
    // With FULL, the group gathering during a sync is flushed when that sync settles.
    if (this.syncing !== undefined) return;
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    const sink = this.sink;
    if (sink === undefined) {
      this.commitToTables(batch);
      return;
    }
    const journal = sink.journal;
    const before = journal.length;
    let lines = '';
    for (const q of batch) lines += journalLine(q.record);
    const fail = (error: unknown) => {
      const failure = new GovernanceError(
        'storage_failure',
        `Cannot write the result journal ${journal.base}`,
        { cause: error },
      );
      for (const q of batch) q.reject(failure);
    };
    try {
      journal.append(lines);
    } catch (error) {
      fail(error);
      return;
    }
    if (!journal.syncs) {
      this.acknowledge(batch);
      return;
    }
    this.syncing = journal.flushToDisk().then(
      () => this.acknowledge(batch),
      (error: unknown) => {
        journal.cutBack(before);
        fail(error);
      },
    );
    void this.syncing.finally(() => {
      this.syncing = undefined;
      // A hand-over waiting for this sync seals the file before the next group is appended;
      // otherwise back-to-back syncs under load would never leave it a gap.
      const waiters = this.handOverWaiters;
      this.handOverWaiters = [];
      if (waiters.length > 0) {
        const drained = this.sealAndDrain();
        for (const waiter of waiters) waiter(drained);
      }
      this.flush();
    });
  }

  /** The group is durable in the journal: acknowledge it and see that it reaches the tables. */
  private acknowledge(batch: QueuedAppend[]): void {
    this.pendingCount += batch.length;
    for (const q of batch) q.resolve(q.stored);
    if (this.pendingCount >= APPLY_BATCH) void this.handOver();
    else this.scheduleHandOver(APPLY_DELAY_MS);
  }

  /** Without a journal the tables are the commit. One bad row must not fail its neighbours. */
  private commitToTables(batch: QueuedAppend[]): void {
    try {
      this.insertRecords(batch.map((q) => q.record));
      for (const q of batch) q.resolve(q.stored);
    } catch {
      for (const q of batch) {
        try {
          this.insertRecords([q.record]);
          q.resolve(q.stored);
        } catch (error) {
          q.reject(
            new GovernanceError('storage_failure', 'SQLite failed to store a result', {
              cause: error,
            }),
          );
        }
      }
    }
  }

  private scheduleHandOver(delayMs: number): void {
    if (this.applyTimer !== undefined || this.closed) return;
    this.applyTimer = setTimeout(() => {
      this.applyTimer = undefined;
      this.handOver();
    }, delayMs);
    // Unreferenced: a process may exit with results still journaled; the next open applies them.
    this.applyTimer.unref();
  }

  /** Seals the open journal generation and has the worker insert everything sealed. */
  private handOver(): Promise<void> {
    if (this.applyTimer !== undefined) {
      clearTimeout(this.applyTimer);
      this.applyTimer = undefined;
    }
    if (this.sink === undefined) return Promise.resolve();
    // The file cannot be sealed under a sync in flight; its group is acknowledged after it.
    if (this.syncing !== undefined) {
      return new Promise((resolve) => {
        this.handOverWaiters.push((drained) => {
          void drained.then(resolve);
        });
      });
    }
    return this.sealAndDrain();
  }

  /** Seals the open generation (no sync may be in flight) and starts the worker on it. */
  private sealAndDrain(): Promise<void> {
    if (this.sink === undefined) return Promise.resolve();
    const generation = this.sink.journal.seal();
    if (generation !== undefined) {
      this.sealed.push({ generation, count: this.pendingCount });
      this.pendingCount = 0;
    }
    // drain() suspends at its first insert, so `draining` is set before its finally clears it.
    if (this.draining === undefined && this.sealed.length > 0)
      this.draining = this.drain(this.sink);
    return this.draining ?? Promise.resolve();
  }

  /** Has the worker insert the sealed generations in order (and delete each file). */
  private async drain(sink: JournalSink): Promise<void> {
    try {
      // Generations sealed while one is being inserted are taken by the same loop.
      while (this.sealed.length > 0) {
        if (sink.applier.stopped) sink.applier = await sink.startApplier();
        const next = this.sealed[0]!;
        // The worker deletes the file once its rows are committed.
        await sink.applier.apply(sink.journal.fileOf(next.generation));
        this.sealed.shift();
      }
      this.applyFailure = undefined;
    } catch (error) {
      // Kept in the journal and in memory; retried, and reads report the failure meanwhile.
      this.applyFailure = error;
      this.scheduleHandOver(APPLY_RETRY_MS);
    } finally {
      this.draining = undefined;
    }
  }

  /** Resolves once every acknowledged result is in the tables, so reads see all of them. */
  private async caughtUp(): Promise<void> {
    if (this.closed) throw new GovernanceError('storage_failure', 'The store is closed');
    if (this.unappliedCount === 0 || this.sink === undefined) return;
    await this.handOver();
    if (this.sealed.length > 0) {
      throw new GovernanceError(
        'storage_failure',
        `SQLite failed to take ${this.unappliedCount} acknowledged results (they are safe in ${this.sink.journal.base}.*)`,
        { cause: this.applyFailure },
      );
    }
  }

  async getCurrentResult(
    contractId: string,
    environment: string,
    policyId?: string,
  ): Promise<StoredEvaluationResult | null> {
    await this.caughtUp();
    return this.guard('read a result', () => {
      const row = (
        policyId === undefined
          ? this.stmts.currentAny.get(contractId, environment)
          : this.stmts.currentFor.get(contractId, environment, policyId)
      ) as ResultRow | undefined;
      return row ? resultFromRow(row) : null;
    });
  }

  async getCurrentStatuses(
    contractIds: readonly string[],
    environment: string,
  ): Promise<CurrentResultStatus[]> {
    if (contractIds.length === 0) return [];
    await this.caughtUp();
    return this.guard('read statuses', () => {
      const rows = this.stmts.currentStatuses.all(
        environment,
        JSON.stringify(contractIds),
      ) as Array<{
        contract_id: string;
        policy_id: string;
        seq: number;
        status: ComplianceState;
        received_at: string;
      }>;
      // Ordered by seq: with several policies the latest result of a contract wins.
      const latest = new Map<string, CurrentResultStatus>();
      for (const row of rows) {
        latest.set(row.contract_id, {
          contractId: row.contract_id,
          policyId: row.policy_id,
          seq: row.seq,
          status: row.status,
          receivedAt: row.received_at,
        });
      }
      return [...latest.values()];
    });
  }

  async listResultHistory(
    contractId: string,
    filter: { environment?: string; policyId?: string; limit: number; offset: number },
  ): Promise<Page<StoredEvaluationResult>> {
    await this.caughtUp();
    return this.guard('list results', () => {
      const where = ['contract_id = ?'];
      const params: unknown[] = [contractId];
      if (filter.environment !== undefined) {
        where.push('environment = ?');
        params.push(filter.environment);
      }
      if (filter.policyId !== undefined) {
        where.push('policy_id = ?');
        params.push(filter.policyId);
      }
      const clause = `WHERE ${where.join(' AND ')}`;
      const { limit, offset } = clampPaging(filter.limit, filter.offset);
      const total = (
        this.db
          .prepare(`SELECT count(*) AS n FROM evaluation_results ${clause}`)
          .get(...params) as {
          n: number;
        }
      ).n;
      const rows = this.db
        .prepare(`SELECT * FROM evaluation_results ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`)
        .all(...params, limit, offset) as ResultRow[];
      return { data: rows.map(resultFromRow), meta: { pagination: { limit, offset, total } } };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Acknowledge what is queued before closing: nothing accepted may be dropped.
    this.flush();
    // With FULL, each settled sync flushes the group that gathered meanwhile.
    while (this.syncing !== undefined) await this.syncing;
    // What the tables do not take now stays in the journal, for the next open.
    await this.handOver();
    this.closed = true;
    if (this.applyTimer !== undefined) clearTimeout(this.applyTimer);
    await this.sink?.applier.close();
    this.sink?.journal.close();
    this.db.close();
    await this.checkpointer?.close();
    this.sink?.lock.release();
  }

  /**
   * At open: results the journal files hold that the tables do not (a crash came between
   * acknowledging and inserting) are inserted and the files deleted; then new results go to the
   * journal and its worker.
   */
  useJournal(opened: { records: JournalRecord[]; files: string[] }, sink: JournalSink): void {
    const missing = opened.records.filter((r) => r.seq >= this.nextSeq);
    if (missing.length > 0) {
      this.insertRecords(missing);
      this.nextSeq = missing[missing.length - 1]!.seq + 1;
    }
    for (const file of opened.files) rmSync(file, { force: true });
    this.sink = sink;
  }
}

/**
 * Opens (and creates or migrates) the SQLite governance store.
 *
 * @example
 * import { openSqliteStore } from '@dcg/governance/sqlite';
 * const store = await openSqliteStore({ file: './data/governance.db' });
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<GovernanceStore> {
  let db: Database.Database | undefined;
  let checkpointer: { close(): Promise<void> } | undefined;
  let sink: JournalSink | undefined;
  const inMemory = options.file === ':memory:' || options.file === '';
  let lock: { release(): void } | undefined;
  try {
    // Sequence numbers and the journal live in this process: it must be the file's only one.
    lock = inMemory ? undefined : lockStoreFile(options.file);
    db = new Database(options.file);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.pragma('busy_timeout = 5000');
    migrate(db);
    if (db.pragma('journal_mode', { simple: true }) === 'wal') {
      // Checkpoints run in a worker thread (see wal-checkpointer.ts), never inside a commit.
      db.pragma('wal_autocheckpoint = 0');
      checkpointer = await startWalCheckpointer(options.file, 200, options.walLimitBytes);
    }
    const store = new SqliteStore(db, checkpointer);
    if (lock === undefined) return store;
    const synchronous = options.synchronous ?? 'NORMAL';
    const { journal, ...opened } = ResultJournal.open(`${options.file}.results-journal`, {
      sync: synchronous === 'FULL',
    });
    const startApplier = () =>
      startResultApplier(options.file, { synchronous, insertSql: INSERT_RESULT_SQL });
    sink = { lock, journal, applier: await startApplier(), startApplier };
    store.useJournal(opened, sink);
    return store;
  } catch (error) {
    sink?.journal.close();
    await sink?.applier.close();
    await checkpointer?.close();
    db?.close();
    lock?.release();
    if (GovernanceError.is(error)) throw error;
    throw new GovernanceError(
      'storage_failure',
      `Cannot open the SQLite database ${options.file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
