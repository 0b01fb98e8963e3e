import { guardedContracts } from '../../guarded-contracts';
import type { InstanceRecord, InstanceRepository } from '../../repositories';
import { componentIds } from '../component-ids';
import { assertStorableText, type GuardRow, guardFromRow } from '../row-mapping';
import type { SqliteContext } from './sqlite-context';

interface InstanceRow {
  system_id: string;
  environment: string;
  descriptor: string;
  deployed_at: string;
  plan_id: string;
}

const instanceFromRow = (row: InstanceRow): InstanceRecord => ({
  systemId: row.system_id,
  environment: row.environment,
  descriptor: JSON.parse(row.descriptor) as Record<string, unknown>,
  deployedAt: row.deployed_at,
  planId: row.plan_id,
});

/**
 * Marketplace instances in SQLite, with the index of their components.
 *
 * @example
 * const instances = sqliteInstanceRepository(ctx);
 */
export function sqliteInstanceRepository(ctx: SqliteContext): InstanceRepository {
  const { db } = ctx;
  const putInstance = db.prepare(
    `INSERT INTO instances (system_id, environment, descriptor, deployed_at, plan_id) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (system_id, environment) DO UPDATE SET descriptor = excluded.descriptor,
       deployed_at = excluded.deployed_at, plan_id = excluded.plan_id`,
  );
  const deleteInstance = db.prepare(
    'DELETE FROM instances WHERE system_id = ? AND environment = ?',
  );
  const getInstance = db.prepare('SELECT * FROM instances WHERE system_id = ? AND environment = ?');
  const deleteComponents = db.prepare(
    'DELETE FROM instance_components WHERE system_id = ? AND environment = ?',
  );
  const insertComponent = db.prepare(
    'INSERT OR IGNORE INTO instance_components (component_id, environment, system_id) VALUES (?, ?, ?)',
  );
  const withComponent = db.prepare(
    `SELECT i.* FROM instance_components c
     JOIN instances i ON i.system_id = c.system_id AND i.environment = c.environment
     WHERE c.component_id = @componentId AND (@environment IS NULL OR c.environment = @environment)
     ORDER BY i.environment, i.system_id`,
  );
  const deleteGuards = db.prepare(
    'DELETE FROM instance_guards WHERE system_id = ? AND environment = ?',
  );
  const insertGuard = db.prepare(
    'INSERT OR IGNORE INTO instance_guards (contract_id, environment, policy_id, guardian_id, system_id) VALUES (?, ?, ?, ?, ?)',
  );
  const guardsOf = db.prepare(
    `SELECT contract_id, environment, policy_id, guardian_id, system_id FROM instance_guards
     WHERE contract_id = @contractId AND (@environment IS NULL OR environment = @environment)
     ORDER BY environment, policy_id, system_id, guardian_id`,
  );
  // The instance, its component index and its guard index change together.
  const write = db.transaction((instance: InstanceRecord) => {
    putInstance.run(
      instance.systemId,
      instance.environment,
      JSON.stringify(instance.descriptor),
      instance.deployedAt,
      instance.planId,
    );
    deleteComponents.run(instance.systemId, instance.environment);
    for (const id of componentIds(instance.descriptor)) {
      insertComponent.run(id, instance.environment, instance.systemId);
    }
    deleteGuards.run(instance.systemId, instance.environment);
    for (const g of guardedContracts(instance.descriptor, instance)) {
      insertGuard.run(g.contractId, g.environment, g.policyId, g.guardianId, g.systemId);
    }
  });
  const remove = db.transaction((systemId: string, environment: string) => {
    deleteComponents.run(systemId, environment);
    deleteGuards.run(systemId, environment);
    return deleteInstance.run(systemId, environment).changes > 0;
  });
  return {
    async putInstance(instance) {
      assertStorableText({ systemId: instance.systemId, environment: instance.environment });
      ctx.run('store an instance', () => write(instance));
    },

    async deleteInstance(systemId, environment) {
      return ctx.run('delete an instance', () => remove(systemId, environment));
    },

    async getInstance(systemId, environment) {
      return ctx.run('read an instance', () => {
        const row = getInstance.get(systemId, environment) as InstanceRow | undefined;
        return row ? instanceFromRow(row) : null;
      });
    },

    async listInstances(filter) {
      return ctx.run('list instances', () => {
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
        return (
          db
            .prepare(`SELECT * FROM instances ${clause} ORDER BY system_id, environment`)
            .all(...params) as InstanceRow[]
        ).map(instanceFromRow);
      });
    },

    async findContractGuards(contractId, environment) {
      return ctx.run('find guards', () =>
        (guardsOf.all({ contractId, environment: environment ?? null }) as GuardRow[]).map(
          guardFromRow,
        ),
      );
    },

    async findInstancesWithComponent(componentId, environment) {
      return ctx.run('find instances', () =>
        (withComponent.all({ componentId, environment: environment ?? null }) as InstanceRow[]).map(
          instanceFromRow,
        ),
      );
    },
  };
}
