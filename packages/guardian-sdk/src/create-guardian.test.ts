import { describe, expect, it } from 'vitest';
import { GUARDIAN_ID, ORDERS_PORT, provisioningRequest, system } from './__fixtures__/systems';
import { createGuardian } from './create-guardian';
import type { SubmitInput } from './governance-client';
import { requirement } from './result-builder';

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

const post =
  (app: { request: (p: string, i: RequestInit) => Response | Promise<Response> }) =>
  (path: string, body: unknown) =>
    Promise.resolve(
      app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    ).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

describe('createGuardian', () => {
  it('provisions per environment through its app, describes itself, and submits where each contract was deployed', async () => {
    const client = sink();
    const guardian = createGuardian({
      checks: [() => requirement('ok').compliant()],
      governance: client,
      describe: () => ({ publicInfo: { checkedIn: { type: 'string', label: 'In', value: 'x' } } }),
    });
    const call = post(guardian.app);
    for (const environment of ['production', 'qa', '  ']) {
      const descriptor = {
        ...system({ policyId: `p-${environment.trim() || 'blank'}` }),
        environment,
      };
      const answer = await call('/v1/provision', provisioningRequest(descriptor));
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('COMPLETED');
      expect((answer.body.info as { publicInfo: unknown }).publicInfo).toEqual({
        monitoredContracts: { type: 'string', label: 'Monitored contracts', value: '1' },
        checkedIn: { type: 'string', label: 'In', value: 'x' },
      });
    }
    // A blank environment is none: the default (production) takes it, replacing production's.
    expect(guardian.registry.list().map((c) => [c.environment, c.policyId])).toEqual([
      ['qa', 'p-qa'],
      ['production', 'p-blank'],
    ]);
    const unprovisioned = await call(
      '/v1/unprovision',
      provisioningRequest({ ...system(), environment: 'qa' }),
    );
    expect(unprovisioned.body.status).toBe('COMPLETED');
    expect(guardian.registry.list().map((c) => c.environment)).toEqual(['production']);
    const summary = await guardian.runOnce();
    await guardian.stop();
    expect(summary.exitCode).toBe(0);
    expect(client.sent.map((s) => [s.policyId, s.environment, s.body[0]?.resource.id])).toEqual([
      ['p-blank', 'production', ORDERS_PORT],
    ]);
    expect(GUARDIAN_ID).toContain('guardian');
  });

  it('answers /health, /ready (200; 503 when not ready, and once stopping) and 404 as JSON', async () => {
    const guardian = createGuardian({ checks: [], governance: sink() });
    expect((await guardian.app.request('/health')).status).toBe(200);
    expect(await (await guardian.app.request('/ready')).json()).toEqual({
      status: 'ready',
      ready: true,
      contracts: 0,
    });
    const missing = await guardian.app.request('/nowhere');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ userMessage: 'Not found' });
    await guardian.stop();
    expect(await (await guardian.app.request('/ready')).json()).toMatchObject({
      status: 'stopping',
      ready: false,
    });
    const no = createGuardian({ checks: [], governance: sink(), ready: () => false });
    const answer = await no.app.request('/ready');
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ error: 'a dependency is not ready' });
  });
});
