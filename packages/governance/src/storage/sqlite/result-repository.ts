import type { ComplianceState } from '@dcg/contract-schema';
import type {
  CurrentResultStatus,
  CurrentResultSummary,
  EvaluationResultRepository,
  StoredEvaluationResult,
} from '../../repositories';
import { GroupCommit } from '../group-commit';
import { enqueueResult, type PendingResult as Pending } from '../pending-result';
import { clampPaging } from '../row-mapping';
import type { SqliteContext } from './sqlite-context';

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

interface SummaryRow {
  environment: string;
  policy_id: string;
  status: ComplianceState;
  contracts: number | string;
  last_received_at: string;
}

const summaryFromRow = (row: SummaryRow): CurrentResultSummary => ({
  environment: row.environment,
  policyId: row.policy_id,
  status: row.status,
  contracts: Number(row.contracts),
  lastReceivedAt: row.last_received_at,
});

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

/**
 * Evaluation results in SQLite. Submissions that arrive in one event-loop turn are inserted in one
 * transaction (group commit) and acknowledged after it: with WAL, a commit is in the WAL file when
 * it returns, so an acknowledged result survives `kill -9`. `drain()` commits what is queued.
 *
 * @example
 * const results = sqliteResultRepository(ctx);
 * await results.appendResult(result);
 */
export function sqliteResultRepository(
  ctx: SqliteContext,
): EvaluationResultRepository & { drain(): Promise<void> } {
  const { db } = ctx;
  const insertResult = db.prepare(
    `INSERT INTO evaluation_results (contract_id, policy_id, environment, received_at, submission, details_conform, status)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  // The current pointer only moves forward.
  const moveCurrent = db.prepare(
    `INSERT INTO current_results (contract_id, policy_id, environment, seq, status, received_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (contract_id, policy_id, environment) DO UPDATE SET seq = excluded.seq,
       status = excluded.status, received_at = excluded.received_at
     WHERE excluded.seq > current_results.seq`,
  );
  const currentAny = db.prepare(
    `SELECT r.* FROM current_results c JOIN evaluation_results r ON r.seq = c.seq
     WHERE c.contract_id = ? AND c.environment = ? ORDER BY c.seq DESC LIMIT 1`,
  );
  const currentFor = db.prepare(
    `SELECT r.* FROM current_results c JOIN evaluation_results r ON r.seq = c.seq
     WHERE c.contract_id = ? AND c.environment = ? AND c.policy_id = ?`,
  );
  // Ordered by seq: with several policies the latest result of a contract wins (last one kept).
  const currentStatuses = db.prepare(
    `SELECT contract_id, policy_id, seq, status, received_at FROM current_results
     WHERE environment = ? AND contract_id IN (SELECT value FROM json_each(?)) ORDER BY seq`,
  );
  // Served by the (contract_id, environment, seq) index; the documents are never parsed.
  const countStates = db.prepare(
    'SELECT count(*) AS n FROM evaluation_results WHERE contract_id = ? AND environment = ?',
  );
  const listStates = db.prepare(
    `SELECT contract_id, policy_id, seq, status, received_at FROM evaluation_results
     WHERE contract_id = ? AND environment = ? ORDER BY seq DESC LIMIT ? OFFSET ?`,
  );
  const summary = db.prepare(
    `SELECT environment, policy_id, status, count(*) AS contracts, max(received_at) AS last_received_at
     FROM current_results GROUP BY environment, policy_id, status ORDER BY environment, policy_id, status`,
  );
  const guarded = db.prepare(
    'SELECT 1 FROM instance_guards WHERE contract_id = ? AND environment = ? AND policy_id = ? LIMIT 1',
  );
  const insertAll = db.transaction((batch: Pending[]) =>
    batch.map(({ result, requireGuard }): StoredEvaluationResult | null => {
      if (
        requireGuard &&
        guarded.get(result.contractId, result.environment, result.policyId) === undefined
      ) {
        return null;
      }
      const seq = Number(
        insertResult.run(
          result.contractId,
          result.policyId,
          result.environment,
          result.receivedAt,
          JSON.stringify(result.submission),
          result.detailsConform ? 1 : 0,
          result.status,
        ).lastInsertRowid,
      );
      moveCurrent.run(
        result.contractId,
        result.policyId,
        result.environment,
        seq,
        result.status,
        result.receivedAt,
      );
      return { ...result, seq };
    }),
  );
  // IMMEDIATE: the transaction reads (the guard) before it writes, and a deferred one could not
  // take the write lock after another connection's commit (SQLITE_BUSY without waiting).
  const group = new GroupCommit((batch: Pending[]) => insertAll.immediate(batch), {
    what: 'an evaluation result in SQLite',
  });

  return {
    drain: () => group.drain(),

    appendResult(result, options) {
      return enqueueResult(group, ctx.assertOpen, result, options);
    },

    async getCurrentResult(contractId, environment, policyId) {
      return ctx.run('read a result', () => {
        const row = (
          policyId === undefined
            ? currentAny.get(contractId, environment)
            : currentFor.get(contractId, environment, policyId)
        ) as ResultRow | undefined;
        return row ? resultFromRow(row) : null;
      });
    },

    async getCurrentStatuses(contractIds, environment) {
      if (contractIds.length === 0) return [];
      return ctx.run('read statuses', () => {
        const rows = currentStatuses.all(environment, JSON.stringify(contractIds)) as Array<
          Pick<ResultRow, 'contract_id' | 'policy_id' | 'seq' | 'status' | 'received_at'>
        >;
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
    },

    async listResultStates(contractId, filter) {
      return ctx.run('list result states', () => {
        const { limit, offset } = clampPaging(filter.limit, filter.offset);
        const { n: total } = countStates.get(contractId, filter.environment) as { n: number };
        const rows = listStates.all(contractId, filter.environment, limit, offset) as Array<
          Pick<ResultRow, 'contract_id' | 'policy_id' | 'seq' | 'status' | 'received_at'>
        >;
        return {
          data: rows.map((row) => ({
            contractId: row.contract_id,
            policyId: row.policy_id,
            seq: row.seq,
            status: row.status,
            receivedAt: row.received_at,
          })),
          meta: { pagination: { limit, offset, total } },
        };
      });
    },

    async summarizeCurrentResults() {
      return ctx.run('summarize results', () =>
        (summary.all() as SummaryRow[]).map(summaryFromRow),
      );
    },

    async listResultHistory(contractId, filter) {
      return ctx.run('list results', () => {
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
        const { n: total } = db
          .prepare(`SELECT count(*) AS n FROM evaluation_results ${clause}`)
          .get(...params) as { n: number };
        const rows = db
          .prepare(`SELECT * FROM evaluation_results ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`)
          .all(...params, limit, offset) as ResultRow[];
        return { data: rows.map(resultFromRow), meta: { pagination: { limit, offset, total } } };
      });
    },
  };
}
