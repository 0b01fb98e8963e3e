import type { ComplianceState } from '@dcg/contract-schema';
import type { Selectable } from 'kysely';
import type {
  CurrentResultStatus,
  EvaluationResultRepository,
  StoredEvaluationResult,
} from '../repositories';
import type { GovernanceTables } from './governance-tables';
import { GroupCommit } from './group-commit';
import { inChunks } from './in-chunks';
import { enqueueResult, type PendingResult } from './pending-result';
import { commitResultsOnPostgres } from './postgres-result-batch';
import { clampPaging, hasNul } from './row-mapping';
import type { StoreContext } from './store-context';

type ResultRow = Selectable<GovernanceTables['evaluation_results']>;
type StateRow = Pick<ResultRow, 'contract_id' | 'policy_id' | 'seq' | 'status' | 'received_at'>;

const keyOf = (r: { contractId: string; environment: string; policyId: string }) =>
  JSON.stringify([r.contractId, r.environment, r.policyId]);

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

  // A result that requires a guard and has none is not inserted (null). On PostgreSQL one
  // statement does it all (see postgres-result-batch.ts); this transaction serves SQLite, where
  // a statement costs no round trip.
  const insertAll = (batch: PendingResult[]): Promise<Array<StoredEvaluationResult | null>> =>
    ctx.dialect === 'postgres'
      ? commitResultsOnPostgres(db, batch)
      : ctx.transaction(async (trx) => {
          const guarded = new Set<string>();
          const needGuard = [
            ...new Set(batch.filter((p) => p.requireGuard).map((p) => p.result.contractId)),
          ];
          for (const ids of inChunks(needGuard)) {
            const guards = await trx
              .selectFrom('instance_guards')
              .select(['contract_id', 'environment', 'policy_id'])
              .where('contract_id', 'in', ids)
              .execute();
            for (const g of guards) {
              guarded.add(
                keyOf({
                  contractId: g.contract_id,
                  environment: g.environment,
                  policyId: g.policy_id,
                }),
              );
            }
          }
          const accepted = batch
            .filter((p) => !p.requireGuard || guarded.has(keyOf(p.result)))
            .map((p) => p.result);
          if (accepted.length === 0) return batch.map(() => null);
          const inserted = await trx
            .insertInto('evaluation_results')
            .values(
              accepted.map((r) => ({
                contract_id: r.contractId,
                policy_id: r.policyId,
                environment: r.environment,
                received_at: r.receivedAt,
                submission: JSON.stringify(r.submission),
                details_conform: ctx.bool(r.detailsConform),
                status: r.status,
              })),
            )
            .returning('seq')
            .execute();
          // Sequence numbers are drawn in the order of the VALUES list; RETURNING's order is not
          // promised, so the numbers are sorted back onto the rows.
          const seqs = inserted.map((row) => Number(row.seq)).sort((a, b) => a - b);
          const stored = new Map(accepted.map((r, i) => [r, { ...r, seq: seqs[i]! }]));
          // The latest of the batch per pointer; the pointer only moves forward.
          const latest = new Map<string, StoredEvaluationResult>();
          for (const s of stored.values()) latest.set(keyOf(s), s);
          const pointers = [...latest.entries()]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([, s]) => ({
              contract_id: s.contractId,
              policy_id: s.policyId,
              environment: s.environment,
              seq: s.seq,
              status: s.status,
              received_at: s.receivedAt,
            }));
          await trx
            .insertInto('current_results')
            .values(pointers)
            .onConflict((oc) =>
              oc
                .columns(['contract_id', 'policy_id', 'environment'])
                .doUpdateSet((eb) => ({
                  seq: eb.ref('excluded.seq'),
                  status: eb.ref('excluded.status'),
                  received_at: eb.ref('excluded.received_at'),
                }))
                .whereRef('excluded.seq', '>', 'current_results.seq'),
            )
            .execute();
          return batch.map((p) => stored.get(p.result) ?? null);
        });
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
        const { limit, offset } = clampPaging(filter.limit, filter.offset);
        // Served by the (contract_id, environment, seq) index; the documents are never read.
        const filtered = db
          .selectFrom('evaluation_results')
          .where('contract_id', '=', contractId)
          .where('environment', '=', filter.environment);
        const { n } = await filtered
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        const rows = await filtered
          .select(['contract_id', 'policy_id', 'seq', 'status', 'received_at'])
          .orderBy('seq', 'desc')
          .limit(limit)
          .offset(offset)
          .execute();
        return {
          data: rows.map(stateFromRow),
          meta: { pagination: { limit, offset, total: Number(n) } },
        };
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
        const { limit, offset } = clampPaging(filter.limit, filter.offset);
        const { n } = await filtered
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        const rows = await filtered
          .selectAll()
          .orderBy('seq', 'desc')
          .limit(limit)
          .offset(offset)
          .execute();
        return {
          data: rows.map(resultFromRow),
          meta: { pagination: { limit, offset, total: Number(n) } },
        };
      });
    },
  };
}
