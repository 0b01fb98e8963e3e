import { describe, expect, it } from 'vitest';
import { ORDERS_PORT, system } from './__fixtures__/systems';
import type { SubmitInput } from './governance-client';
import { guardedContracts } from './guarded-contracts';
import { requirement } from './result-builder';
import {
  type Check,
  defineCheck,
  type MonitoredContract,
  type RunReport,
  runGuardian,
} from './run-guardian';

function contracts(n = 1): MonitoredContract[] {
  const found = guardedContracts(system() as never, system().components[2] as never);
  if (!found.success) throw new Error('fixture');
  const base = found.data[0]!;
  return Array.from({ length: n }, (_, i) => ({
    ...base,
    resourceId: `${ORDERS_PORT}${i}`,
    policyId: 'p',
    environment: 'production',
  }));
}

function sink() {
  const sent: SubmitInput[] = [];
  return {
    sent,
    submit: async (input: SubmitInput) => {
      sent.push(input);
      return { status: 201, attempts: 1, body: {} };
    },
  };
}

const ok: Check = () => requirement('ok', 'ok').compliant();

describe('runGuardian', () => {
  it('runOnce: a throwing check means the run could not run: nothing is sent, exit code 2', async () => {
    const client = sink();
    const logged: Array<[string, string, Record<string, unknown> | undefined]> = [];
    const boom = defineCheck('boom', () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    });
    const guardian = runGuardian({
      contracts: contracts(),
      checks: [ok, boom],
      client,
      tickMs: 60_000,
      schedule: { intervalMs: 3_600_000 },
      hooks: { log: (level, message, fields) => logged.push([level, message, fields]) },
    });
    const summary = await guardian.runOnce();
    await guardian.stop();
    expect(summary).toMatchObject({
      compliant: 0,
      violated: 0,
      couldNotRun: 1,
      errors: 1,
      exitCode: 2,
    });
    expect(summary.reports[0]).toMatchObject({
      outcome: 'could_not_run',
      stage: 'check',
      reason: 'the check boom could not run: connect ECONNREFUSED 127.0.0.1:5432; nothing was sent',
    });
    expect((summary.reports[0]!.error as Error).message).toBe(
      'connect ECONNREFUSED 127.0.0.1:5432',
    );
    expect(client.sent).toHaveLength(0);
    expect(logged).toEqual([
      [
        'warn',
        'could not run',
        {
          resourceId: `${ORDERS_PORT}0`,
          environment: 'production',
          stage: 'check',
          reason: summary.reports[0]?.reason,
        },
      ],
    ]);
  });

  it('a check that returns nothing could not run, with a clear reason', async () => {
    const client = sink();
    const silent = defineCheck('silent', () => undefined as never);
    const guardian = runGuardian({
      contracts: contracts(),
      checks: [silent],
      client,
      scheduled: false,
    });
    const summary = await guardian.runOnce();
    await guardian.stop();
    expect(summary.reports[0]?.reason).toBe(
      'the check silent could not run: it returned nothing; a check returns a requirement, a section or an array of them; nothing was sent',
    );
    expect((summary.reports[0]!.error as { code?: string }).code).toBe('check_failed');
    expect(client.sent).toHaveLength(0);
  });

  it('runOnce: 2 wins over 1 when one contract is violated and another could not run', async () => {
    const [a, b] = contracts(2);
    const mixed = defineCheck('mixed', ({ target }) => {
      if (target === b) throw new Error('timeout');
      return requirement('x').violated('bad');
    });
    const guardian = runGuardian({
      contracts: [a!, b!],
      checks: [mixed],
      client: sink(),
      scheduled: false,
    });
    const summary = await guardian.runOnce();
    await guardian.stop();
    expect(summary).toMatchObject({ violated: 1, couldNotRun: 1, exitCode: 2 });
  });

  it('runOnce exit codes: 0 compliant, 2 when a submission fails or nothing is guarded', async () => {
    const a = runGuardian({
      contracts: contracts(2),
      checks: [ok],
      client: sink(),
      tickMs: 60_000,
      schedule: { intervalMs: 3_600_000 },
    });
    expect((await a.runOnce()).exitCode).toBe(0);
    await a.stop();
    const failing = {
      submit: async () => {
        throw new Error('down');
      },
    };
    const b = runGuardian({
      contracts: contracts(),
      checks: [ok],
      client: failing,
      tickMs: 60_000,
      schedule: { intervalMs: 3_600_000 },
    });
    expect((await b.runOnce()).exitCode).toBe(2);
    await b.stop();
    const c = runGuardian({ contracts: [], checks: [ok], client: sink() });
    expect((await c.runOnce()).exitCode).toBe(2);
    await c.stop();
  });

  it('counts as violations only the failing requirements that block; unchecked ones and warnings apart', async () => {
    const client = sink();
    const mixed: Check = () => [
      requirement('kept').compliant(),
      requirement('broken').violated('3 rows fail'),
      requirement('soft', undefined, undefined, { severity: 'warning' }).violated('1 row'),
      requirement('unread').notChecked('the column is not in the table'),
    ];
    const guardian = runGuardian({
      contracts: contracts(),
      checks: [mixed],
      client,
      tickMs: 60_000,
      schedule: { intervalMs: 3_600_000 },
    });
    const summary = await guardian.runOnce();
    await guardian.stop();
    expect(summary.reports[0]).toMatchObject({
      outcome: 'violated',
      violations: 1,
      warnings: 1,
      notChecked: 1,
    });
  });

  it('runs on schedule with jitter, never two runs of one contract at once', async () => {
    const client = sink();
    let active = 0;
    let maxActive = 0;
    const slow: Check = async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setTimeout(r, 80));
      active--;
      return requirement('slow').compliant();
    };
    const reports: RunReport[] = [];
    const guardian = runGuardian({
      contracts: contracts(),
      checks: [slow],
      client,
      schedule: { intervalMs: 20 },
      jitterMs: 5,
      tickMs: 5,
      hooks: { onRunEnd: (r) => reports.push(r) },
    });
    await new Promise((r) => setTimeout(r, 400));
    await guardian.stop();
    expect(maxActive).toBe(1);
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports.every((r) => r.outcome === 'compliant')).toBe(true);
  });

  it('uses the guard monitoringResultScheduling and picks up contracts that appear later', async () => {
    const client = sink();
    const list: MonitoredContract[] = [];
    const guardian = runGuardian({
      contracts: () => list,
      checks: [ok],
      client,
      tickMs: 5,
      jitterMs: 0,
      schedule: { intervalMs: 3_600_000 },
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(client.sent).toHaveLength(0);
    list.push({ ...contracts()[0]!, scheduling: { interval: '1s' } });
    await new Promise((r) => setTimeout(r, 1300));
    await guardian.stop();
    expect(client.sent.length).toBe(2);
  });

  it('stop: lets the run in flight finish within the deadline', async () => {
    const client = sink();
    const slow: Check = async () => {
      await new Promise((r) => setTimeout(r, 100));
      return requirement('s').compliant();
    };
    const guardian = runGuardian({
      contracts: contracts(),
      checks: [slow],
      client,
      tickMs: 5,
      jitterMs: 0,
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(guardian.running).toBe(1);
    await guardian.stop(5000);
    expect(client.sent).toHaveLength(1);
  });

  it('stop: abandons a run past the deadline, aborts its checks and never sends its result', async () => {
    const client = sink();
    let aborted = false;
    const stuck: Check = ({ signal }) =>
      new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          aborted = true;
          reject(signal.reason);
        }),
      );
    const reports: RunReport[] = [];
    const guardian = runGuardian({
      contracts: contracts(),
      checks: [stuck],
      client,
      tickMs: 5,
      jitterMs: 0,
      hooks: { onRunEnd: (r) => reports.push(r) },
    });
    await new Promise((r) => setTimeout(r, 20));
    await guardian.stop(50);
    expect(aborted).toBe(true);
    expect(client.sent).toHaveLength(0);
    expect(reports.map((r) => r.outcome)).toEqual(['abandoned']);
  });

  it('starts the next due contract as soon as a slot frees, not at the next tick', async () => {
    const client = sink();
    const quick: Check = async () => {
      await new Promise((r) => setTimeout(r, 5));
      return requirement('q').compliant();
    };
    const guardian = runGuardian({
      contracts: contracts(20),
      checks: [quick],
      client,
      concurrency: 2,
      tickMs: 60_000,
      jitterMs: 0,
      schedule: { intervalMs: 3_600_000 },
    });
    const t0 = Date.now();
    while (client.sent.length < 20 && Date.now() - t0 < 5000)
      await new Promise((r) => setTimeout(r, 10));
    await guardian.stop();
    expect(client.sent).toHaveLength(20);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('scheduled: false runs nothing until runOnce; an unreadable schedule is reported once', async () => {
    const client = sink();
    const warnings: string[] = [];
    const manual = runGuardian({ contracts: contracts(), checks: [ok], client, scheduled: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(client.sent).toHaveLength(0);
    await manual.runOnce();
    expect(client.sent).toHaveLength(1);
    await manual.stop();
    const odd = runGuardian({
      contracts: [{ ...contracts()[0]!, scheduling: { cron: 'bad' } }],
      checks: [ok],
      client: sink(),
      tickMs: 5,
      schedule: { intervalMs: 3_600_000 },
      hooks: { log: (_level, message) => warnings.push(message) },
    });
    await new Promise((r) => setTimeout(r, 60));
    await odd.stop();
    expect(warnings).toEqual(['unreadable monitoringResultScheduling: default schedule used']);
  });
});
