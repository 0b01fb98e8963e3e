import { describe, expect, it } from 'vitest';
import { ORDERS_PORT, system } from './__fixtures__/systems';
import { guardedContracts } from './guarded-contracts';
import { GuardianSdkError } from './guardian-sdk-error';
import { buildSubmission, requirement, section } from './result-builder';
import { type Check, runGuardian } from './run-guardian';

describe('result builder', () => {
  it('derives satisfiesPolicy and the error summary from the requirements', () => {
    const body = buildSubmission({
      resource: { id: 'urn:dmb:cmp:a:b:0:p', displayName: 'P' },
      results: {
        root: [
          section('schema', 'Schema', [
            requirement('amount_type', 'amount type').violated(
              'column amount is text, the contract says decimal',
            ),
            requirement('id', 'id exists').compliant(),
          ]),
          section('quality', 'Quality', [
            requirement('nulls', 'no nulls').check(['12 rows have a null amount']),
          ]),
        ],
      },
    });
    expect(body[0]?.result.satisfiesPolicy).toBe(false);
    expect(body[0]?.resource).toEqual({
      id: 'urn:dmb:cmp:a:b:0:p',
      displayName: 'P',
      descriptor: '',
    });
    expect(body[0]?.result.details.notes?.errorSummary?.message).toBe(
      '2 data contract requirements violated: amount type: column amount is text, the contract says decimal; no nulls: 12 rows have a null amount',
    );
  });

  it('is compliant without notes when every requirement holds; explicit values win', () => {
    const ok = buildSubmission({
      resource: { id: 'x' },
      results: { root: [requirement('a').check([])] },
    });
    expect(ok[0]?.result).toEqual({
      satisfiesPolicy: true,
      errors: [],
      details: { results: { root: [{ key: 'a', compliant: true }] } },
    });
    const forced = buildSubmission({
      resource: { id: 'x' },
      results: { root: [requirement('a').compliant()] },
      satisfiesPolicy: false,
      errorSummary: 'manual',
    });
    expect(forced[0]?.result.satisfiesPolicy).toBe(false);
    expect(forced[0]?.result.details.notes?.errorSummary?.message).toBe('manual');
  });

  it('refuses a hand-made record that breaks A4, with the path', () => {
    const error = (() => {
      try {
        buildSubmission({
          resource: { id: 'x' },
          results: { root: [{ key: 'bad', compliant: true, children: [] }] },
        });
      } catch (e) {
        return e;
      }
    })();
    expect(GuardianSdkError.isInstance(error) && error.code).toBe('invalid_result');
    expect((error as Error).message).toContain('$[0].result.details.results.root[0]');
    expect(() => requirement('')).toThrow(/non-empty key/);
  });

  it('a rule not checked and a failing rule of non-blocking severity are reported, but do not violate the policy', () => {
    const records = [
      section('quality', 'Quality', [
        requirement('a', 'a', undefined, { severity: 'warning' }).violated('3 rows have a null a'),
        requirement('b', 'b', undefined, { severity: 'error' }).compliant(),
      ]),
      section('not_checked', 'Not checked', [
        requirement('n', 'the SLA retention').notChecked('retention is not measured'),
      ]),
    ];
    const body = buildSubmission({ resource: { id: 'x' }, results: { root: records } });
    expect(body[0]?.result.satisfiesPolicy).toBe(true);
    expect(body[0]?.result.details.results.root).toEqual([
      {
        key: 'quality',
        name: 'Quality',
        children: [
          {
            key: 'a',
            name: 'a',
            severity: 'warning',
            compliant: false,
            issues: ['3 rows have a null a'],
          },
          { key: 'b', name: 'b', severity: 'error', compliant: true },
        ],
      },
      {
        key: 'not_checked',
        name: 'Not checked',
        children: [
          {
            key: 'n',
            name: 'the SLA retention',
            compliant: false,
            checked: false,
            issues: ['not checked: retention is not measured'],
          },
        ],
      },
    ]);
    const blocking = buildSubmission({
      resource: { id: 'x' },
      results: {
        root: [requirement('a', 'a', undefined, { severity: 'critical' }).violated('broken')],
      },
    });
    expect(blocking[0]?.result.satisfiesPolicy).toBe(false);
  });

  it('refuses keys used twice among siblings (A4: a key is unique)', () => {
    const twice = () =>
      buildSubmission({
        resource: { id: 'x' },
        results: {
          root: [
            section('quality', 'Quality', [
              requirement('a').compliant(),
              requirement('a').compliant(),
            ]),
          ],
        },
      });
    expect(twice).toThrow(
      'results.root[0].children[1]: the key "a" is used twice among its siblings (A4: a key is unique)',
    );
    // The same key under two different sections is fine.
    expect(() =>
      buildSubmission({
        resource: { id: 'x' },
        results: {
          root: [
            section('s1', 's1', [requirement('a').compliant()]),
            section('s2', 's2', [requirement('a').compliant()]),
          ],
        },
      }),
    ).not.toThrow();
  });

  it('a check that returns nothing gets a clear error, not a TypeError', async () => {
    const found = guardedContracts(system() as never, system().components[2] as never);
    const guarded = found.success ? found.data[0] : undefined;
    if (!guarded) throw new Error('fixture');
    const sent: unknown[] = [];
    const logs: string[] = [];
    const nothing = (() => undefined) as unknown as Check;
    const guardian = runGuardian({
      contracts: [
        {
          ...guarded,
          resourceId: ORDERS_PORT,
          policyId: 'p',
          environment: 'production',
        },
      ],
      checks: [nothing],
      client: {
        submit: async (input) => {
          sent.push(input);
          return { status: 201, attempts: 1, body: {} };
        },
      },
      scheduled: false,
      hooks: { log: (_level, _message, fields) => logs.push(String(fields?.error)) },
    });
    const summary = await guardian.runOnce();
    await guardian.stop();
    expect(sent).toEqual([]);
    // The run catches it before the builder does: a check that returns nothing could not run.
    expect(summary.reports[0]?.outcome).toBe('could_not_run');
    expect(JSON.stringify(summary.reports[0])).toContain('it returned nothing');
    expect(logs[0]).not.toMatch(/TypeError|Cannot read/);
  });
});
