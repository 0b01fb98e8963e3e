import type { ComplianceState } from '@dcg/contract-schema';
import type {
  CurrentResultSummary,
  EvaluationResultRepository,
  StoredEvaluationResult,
} from '../../repositories';
import { GroupCommit } from '../group-commit';
import { enqueueResult, type PendingResult as Pending } from '../pending-result';
import { clampPaging } from '../row-mapping';
import type { PostgresContext } from './postgres-context';

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
  seq: Number(row.seq),
  contractId: row.contract_id,
  policyId: row.policy_id,
  environment: row.environment,
  receivedAt: row.received_at,
  submission: row.submission,
  detailsConform: row.details_conform,
  status: row.status,
});

/**
 * Evaluation results in PostgreSQL. Submissions that arrive in one event-loop turn are inserted
 * by one statement, one transaction (group commit), and acknowledged after its commit; up to four
 * such commits run at once on the pool. `drain()` commits what is queued.
 *
 * @example
 * const results = postgresResultRepository(ctx);
 * await results.appendResult(result);
 */
export function postgresResultRepository(
  ctx: PostgresContext,
): EvaluationResultRepository & { drain(): Promise<void> } {
  const { pool } = ctx;
  // Sequence numbers are drawn first (in input order) so each caller learns its own; the pointer
  // only moves forward, so racing submissions leave the latest current.
  // A result that requires a guard and has none gets no sequence number and is not inserted.
  const insertAll = async (batch: Pending[]): Promise<Array<StoredEvaluationResult | null>> => {
    const results = batch.map((p) => p.result);
    const { rows } = await pool.query(
      `WITH input AS MATERIALIZED (
         SELECT t.*, CASE WHEN NOT t.require_guard OR EXISTS (
             SELECT 1 FROM instance_guards g WHERE g.contract_id = t.contract_id
               AND g.environment = t.environment AND g.policy_id = t.policy_id)
           THEN nextval(pg_get_serial_sequence('evaluation_results', 'seq')) END AS seq
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::boolean[])
           WITH ORDINALITY AS t(contract_id, policy_id, environment, received_at, submission, details_conform, status, require_guard, ord)
         ORDER BY t.ord
       ), inserted AS (
         INSERT INTO evaluation_results (seq, contract_id, policy_id, environment, received_at, submission, details_conform, status)
         SELECT seq, contract_id, policy_id, environment, received_at, submission::json, details_conform, status
         FROM input WHERE seq IS NOT NULL
       ), pointer AS (
         INSERT INTO current_results (contract_id, policy_id, environment, seq, status, received_at)
         SELECT DISTINCT ON (contract_id, policy_id, environment) contract_id, policy_id, environment, seq, status, received_at
         FROM input WHERE seq IS NOT NULL ORDER BY contract_id, policy_id, environment, seq DESC
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
        results.map((r) => JSON.stringify(r.submission)),
        results.map((r) => r.detailsConform),
        results.map((r) => r.status),
        batch.map((p) => p.requireGuard),
      ],
    );
    return results.map((r, i) => {
      const { seq } = rows[i] as { seq: string | null };
      return seq === null ? null : { ...r, seq: Number(seq) };
    });
  };
  const group = new GroupCommit(insertAll, {
    what: 'an evaluation result in PostgreSQL',
    maxBatch: 256,
    maxConcurrent: 4,
  });

  return {
    drain: () => group.drain(),

    appendResult(result, options) {
      return enqueueResult(group, ctx.assertOpen, result, options);
    },

    async getCurrentResult(contractId, environment, policyId) {
      return ctx.run('read a result', async () => {
        const { rows } =
          policyId === undefined
            ? await pool.query(
                `SELECT r.* FROM current_results c JOIN evaluation_results r ON r.seq = c.seq
                 WHERE c.contract_id = $1 AND c.environment = $2 ORDER BY c.seq DESC LIMIT 1`,
                [contractId, environment],
              )
            : await pool.query(
                `SELECT r.* FROM current_results c JOIN evaluation_results r ON r.seq = c.seq
                 WHERE c.contract_id = $1 AND c.environment = $2 AND c.policy_id = $3`,
                [contractId, environment, policyId],
              );
        const row = rows[0] as ResultRow | undefined;
        return row ? resultFromRow(row) : null;
      });
    },

    async summarizeCurrentResults() {
      return ctx.run('summarize results', async () => {
        const { rows } = await pool.query(
          `SELECT environment, policy_id, status, count(*) AS contracts, max(received_at) AS last_received_at
     FROM current_results GROUP BY environment, policy_id, status ORDER BY environment, policy_id, status`,
        );
        return (rows as SummaryRow[]).map(summaryFromRow);
      });
    },

    async getCurrentStatuses(contractIds, environment) {
      // Text with NUL cannot be stored, so no result can match it; PostgreSQL would refuse the query.
      const ids = contractIds.filter((id) => !id.includes('\u0000'));
      if (ids.length === 0 || environment.includes('\u0000')) return [];
      return ctx.run('read statuses', async () => {
        const { rows } = await pool.query(
          `SELECT DISTINCT ON (contract_id) contract_id, policy_id, seq, status, received_at
           FROM current_results WHERE environment = $1 AND contract_id = ANY($2::text[])
           ORDER BY contract_id, seq DESC`,
          [environment, ids],
        );
        return (
          rows as Array<
            Pick<ResultRow, 'contract_id' | 'policy_id' | 'seq' | 'status' | 'received_at'>
          >
        ).map((row) => ({
          contractId: row.contract_id,
          policyId: row.policy_id,
          seq: Number(row.seq),
          status: row.status,
          receivedAt: row.received_at,
        }));
      });
    },

    async listResultStates(contractId, filter) {
      return ctx.run('list result states', async () => {
        const { limit, offset } = clampPaging(filter.limit, filter.offset);
        const params = [contractId, filter.environment];
        const where = 'WHERE contract_id = $1 AND environment = $2';
        const count = await pool.query(
          `SELECT count(*)::int AS n FROM evaluation_results ${where}`,
          params,
        );
        // The documents are not read: only the columns of the timeline.
        const { rows } = await pool.query(
          `SELECT contract_id, policy_id, seq, status, received_at FROM evaluation_results ${where}
           ORDER BY seq DESC LIMIT ${limit} OFFSET ${offset}`,
          params,
        );
        return {
          data: (rows as ResultRow[]).map((row) => ({
            contractId: row.contract_id,
            policyId: row.policy_id,
            seq: Number(row.seq),
            status: row.status,
            receivedAt: row.received_at,
          })),
          meta: { pagination: { limit, offset, total: (count.rows[0] as { n: number }).n } },
        };
      });
    },

    async listResultHistory(contractId, filter) {
      return ctx.run('list results', async () => {
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
        const count = await pool.query(
          `SELECT count(*)::int AS n FROM evaluation_results ${clause}`,
          params,
        );
        const { rows } = await pool.query(
          `SELECT * FROM evaluation_results ${clause} ORDER BY seq DESC LIMIT ${limit} OFFSET ${offset}`,
          params,
        );
        return {
          data: (rows as ResultRow[]).map(resultFromRow),
          meta: { pagination: { limit, offset, total: (count.rows[0] as { n: number }).n } },
        };
      });
    },
  };
}
