import type { ComplianceState } from '@dcg/contract-schema';
import { writeOnSqlite } from '@dcg/storage';
import type { Selectable } from 'kysely';
import type {
  CurrentResultStatus,
  EvaluationResultRepository,
  StoredEvaluationResult,
} from '../repositories';
import type { GovernanceTables } from './governance-tables';
import { GroupCommit } from './group-commit';
import { inChunks } from './in-chunks';
import { pagedList } from './paged-list';
import { enqueueResult, type PendingResult } from './pending-result';
import { commitResultsOnPostgres } from './postgres-result-batch';
import { hasNul } from './row-mapping';
import { sqliteResultBatch } from './sqlite-result-batch';
import type { StoreContext } from './store-context';

type ResultRow = Selectable<GovernanceTables['evaluation_results']>;
type StateRow = Pick<ResultRow, 'contract_id' | 'policy_id' | 'seq' | 'status' | 'received_at'>;

const stateFromRow = (row: StateRow): CurrentResultStatus => ({
  contractId: row.contract_id,
  policyId: row.policy_id,
  seq: Number(row.seq),
  status: row.status as ComplianceState,
  receivedAt: row.received_at,
});

/**
 * Evaluation results, on either dialect. Submissions that arrive in one event-loop turn are
 * committed together (group commit): one transaction checks their guards, inserts them and moves
 * the current pointers, and each is acknowledged after its commit (SQLite WAL: in the WAL file;
 * PostgreSQL: committed). `drain()` commits what is queued.
 *
 * @example
 * const results = resultRepository(ctx);
 * await results.appendResult(result);
 */
export function resultRepository(
  ctx: StoreContext,
): EvaluationResultRepository & { drain(): Promise<void> } {
  const { db } = ctx;
  const resultFromRow = (row: ResultRow): StoredEvaluationResult => ({
    seq: Number(row.seq),
    contractId: row.contract_id,
    policyId: row.policy_id,
    environment: row.environment,
    receivedAt: row.received_at,
    submission: ctx.readJson(row.submission),
    detailsConform: row.details_conform === true || row.details_conform === 1,
    status: row.status as ComplianceState,
  });

  // A result that requires a guard and has none is not inserted (null). Each dialect has its own
  // hot path: PostgreSQL one statement (postgres-result-batch.ts), SQLite one synchronous
  // transaction of prepared statements (sqlite-result-batch.ts).
  const { handle } = ctx;
  let insertAll: (batch: PendingResult[]) => Promise<Array<StoredEvaluationResult | null>>;
  if (handle.dialect === 'postgres') {
    insertAll = (batch) => commitResultsOnPostgres(handle.pool, batch);
  } else {
    const commit = sqliteResultBatch(handle.raw);
    insertAll = (batch) => writeOnSqlite(handle, () => commit(batch));
  }
  const group = new GroupCommit(insertAll, {
    what: `an evaluation result in ${ctx.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
    // SQLite has one connection, so one commit at a time; PostgreSQL's pool takes up to four.
    maxBatch: 500,
    maxConcurrent: ctx.dialect === 'sqlite' ? 1 : 4,
  });

  return {
    drain: () => group.drain(),

    appendResult(result, options) {
      return enqueueResult(group, ctx.assertOpen, result, options);
    },

    async getCurrentResult(contractId, environment, policyId) {
      if (hasNul(contractId) || hasNul(environment) || hasNul(policyId)) return null;
      return ctx.run('read a result', async () => {
        const row = await db
          .selectFrom('current_results as c')
          .innerJoin('evaluation_results as r', 'r.seq', 'c.seq')
          .selectAll('r')
          .where('c.contract_id', '=', contractId)
          .where('c.environment', '=', environment)
          .$if(policyId !== undefined, (q) => q.where('c.policy_id', '=', policyId!))
          .orderBy('c.seq', 'desc')
          .limit(1)
          .executeTakeFirst();
        return row ? resultFromRow(row) : null;
      });
    },

    async getCurrentStatuses(contractIds, environment) {
      const ids = [...new Set(contractIds.filter((id) => !hasNul(id)))];
      if (ids.length === 0 || hasNul(environment)) return [];
      return ctx.run('read statuses', async () => {
        // With several policies the latest result of a contract wins: rows come by seq, the last
        // one of a contract is kept.
        const latest = new Map<string, CurrentResultStatus>();
        const rows: StateRow[] = [];
        for (const chunk of inChunks(ids)) {
          rows.push(
            ...(await db
              .selectFrom('current_results')
              .select(['contract_id', 'policy_id', 'seq', 'status', 'received_at'])
              .where('environment', '=', environment)
              .where('contract_id', 'in', chunk)
              .execute()),
          );
        }
        rows.sort((a, b) => Number(a.seq) - Number(b.seq));
        for (const row of rows) latest.set(row.contract_id, stateFromRow(row));
        return [...latest.values()];
      });
    },

    async listResultStates(contractId, filter) {
      return ctx.run('list result states', async () => {
        // Served by the (contract_id, environment, seq) index; the documents are never read.
        const filtered = db
          .selectFrom('evaluation_results')
          .where('contract_id', '=', contractId)
          .where('environment', '=', filter.environment);
        return pagedList(
          filtered,
          filter,
          (q) =>
            q
              .select(['contract_id', 'policy_id', 'seq', 'status', 'received_at'])
              .orderBy('seq', 'desc'),
          stateFromRow,
        );
      });
    },

    async summarizeCurrentResults() {
      return ctx.run('summarize results', async () => {
        const rows = await db
          .selectFrom('current_results')
          .select((eb) => [
            'environment',
            'policy_id',
            'status',
            eb.fn.countAll().as('contracts'),
            eb.fn.max('received_at').as('last_received_at'),
          ])
          .groupBy(['environment', 'policy_id', 'status'])
          .orderBy('environment')
          .orderBy('policy_id')
          .orderBy('status')
          .execute();
        return rows.map((row) => ({
          environment: row.environment,
          policyId: row.policy_id,
          status: row.status as ComplianceState,
          contracts: Number(row.contracts),
          lastReceivedAt: row.last_received_at,
        }));
      });
    },

    async listResultHistory(contractId, filter) {
      return ctx.run('list results', async () => {
        const filtered = db
          .selectFrom('evaluation_results')
          .where('contract_id', '=', contractId)
          .$if(filter.environment !== undefined, (q) =>
            q.where('environment', '=', filter.environment!),
          )
          .$if(filter.policyId !== undefined, (q) => q.where('policy_id', '=', filter.policyId!));
        return pagedList(
          filtered,
          filter,
          (q) => q.selectAll().orderBy('seq', 'desc'),
          resultFromRow,
        );
      });
    },
  };
}
