import { isValidProvisioningInfo } from '@dcg/contract-schema';
import { describe, expect, it } from 'vitest';
import { GUARDIAN_ID, ORDERS_PORT, provisioningRequest, system } from './__fixtures__/systems';
import { createGuardianAdapter, type GuardianProvisioning } from './tech-adapter';

function post(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  path: string,
  body: unknown,
) {
  return app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('createGuardianAdapter', () => {
  it('provisions: hands the policy id and the parsed guarded contracts to the handler, keeps info', async () => {
    const seen: GuardianProvisioning[] = [];
    const { app } = createGuardianAdapter({
      onProvision: (p) => {
        seen.push(p);
        // A careless handler: it returns privateInfo without the policy id.
        return {
          publicInfo: { checks: { type: 'string', label: 'Checks', value: '3' } },
          privateInfo: { mine: 1 },
        };
      },
    });
    const input = { privateInfo: { __dataContractGuardian: { policyId: 'p-1' } } };
    const res = await post(app, '/v1/provision', provisioningRequest(system({ info: input })));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; info: Record<string, unknown> };
    expect(body.status).toBe('COMPLETED');
    expect(isValidProvisioningInfo(input, body.info)).toBe(true);
    expect(body.info).toEqual({
      privateInfo: { __dataContractGuardian: { policyId: 'p-1' }, mine: 1 },
      publicInfo: { checks: { type: 'string', label: 'Checks', value: '3' } },
    });
    expect(seen[0]?.policyId).toBe('p-1');
    expect(seen[0]?.environment).toBe('production');
    expect(seen[0]?.contracts.map((c) => [c.resourceId, c.parts.map((p) => p.key)])).toEqual([
      [ORDERS_PORT, ['root']],
    ]);
    expect(seen[0]?.contracts[0]?.parts[0]?.contract.models[0]?.table).toBe('orders');
  });

  it('accepts info with publicInfo from the coordinator and always answers publicInfo', async () => {
    const { app } = createGuardianAdapter({ onProvision: () => undefined });
    const input = {
      publicInfo: { owner: { type: 'string', label: 'Owner', value: 'x' } },
      privateInfo: { __dataContractGuardian: { policyId: 'p-2' } },
    };
    const res = await post(app, '/v1/provision', provisioningRequest(system({ info: input })));
    const body = (await res.json()) as { info: Record<string, unknown> };
    expect(body.info).toEqual(input);
  });

  it('fails the provisioning with a clear message when the policy id is missing', async () => {
    let called = false;
    const { app } = createGuardianAdapter({
      onProvision: () => {
        called = true;
      },
    });
    const res = await post(app, '/v1/provision', provisioningRequest(system()));
    const body = (await res.json()) as { status: string; result: string };
    expect(res.status).toBe(200);
    expect(body.status).toBe('FAILED');
    expect(body.result).toMatch(/missing passive policy/);
    expect(called).toBe(false);
  });

  it('answers 400 for a guard on a missing component or on one that is not a data contract', async () => {
    const { app } = createGuardianAdapter({ onProvision: () => undefined });
    const res = await post(
      app,
      '/v1/provision',
      provisioningRequest(
        system({
          policyId: 'p',
          guards: ['urn:dmb:cmp:nope', 'urn:dmb:cmp:finance:orders:0:storage'],
        }),
      ),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: string[]; inputErrorField: string };
    expect(body.errors).toEqual([
      expect.stringContaining('guards[0].dataContractId: no component "urn:dmb:cmp:nope"'),
      expect.stringContaining('is not a data contract'),
    ]);
    expect(body.inputErrorField).toBe(
      'descriptor.dataProduct.components[2].__dataContractGuardianSpec.guards[0].dataContractId',
    );
  });

  it('answers 400 with the contract path for a malformed contract, never a crash', async () => {
    const { app } = createGuardianAdapter({ onProvision: () => undefined });
    const res = await post(
      app,
      '/v1/provision',
      provisioningRequest(
        system({ policyId: 'p', contract: { schema: [{ name: 5 }], endpoint: 'a;drop' } }),
      ),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: string[] };
    expect(body.errors.join('\n')).toContain('components[0].dataContract.schema[0].name');
  });

  it('answers 400 for bad JSON, a bad envelope, bad YAML and a non-guardian component; 413 when too large', async () => {
    const { app } = createGuardianAdapter({ onProvision: () => undefined, maxBodyBytes: 2000 });
    expect((await post(app, '/v1/provision', '{nope')).status).toBe(400);
    expect((await post(app, '/v1/provision', { descriptorKind: 'X' })).status).toBe(400);
    const yaml = await post(app, '/v1/provision', {
      descriptorKind: 'COMPONENT_DESCRIPTOR',
      descriptor: 'a: [',
      removeData: false,
    });
    expect(yaml.status).toBe(400);
    expect(((await yaml.json()) as { errors: string[] }).errors[0]).toMatch(/descriptor/);
    const port = await post(
      app,
      '/v1/provision',
      provisioningRequest(system({ policyId: 'p' }), ORDERS_PORT),
    );
    expect(port.status).toBe(400);
    expect((await post(app, '/v1/provision', { descriptor: 'x'.repeat(5000) })).status).toBe(413);
  });

  it('answers 202 with a token for a slow handler, and the status endpoint reports it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { app } = createGuardianAdapter({
      syncTimeoutMs: 20,
      onProvision: async () => {
        await gate;
        return { publicInfo: { done: true } };
      },
    });
    const res = await post(app, '/v1/provision', provisioningRequest(system({ policyId: 'p' })));
    expect(res.status).toBe(202);
    const token = (await res.json()) as string;
    const running = await app.request(`/v1/provision/${token}/status`);
    expect(((await running.json()) as { status: string }).status).toBe('RUNNING');
    release();
    await new Promise((r) => setTimeout(r, 10));
    const done = (await (await app.request(`/v1/provision/${token}/status`)).json()) as {
      status: string;
      info: { privateInfo: unknown };
    };
    expect(done.status).toBe('COMPLETED');
    expect(done.info.privateInfo).toEqual({ __dataContractGuardian: { policyId: 'p' } });
    expect((await app.request('/v1/provision/unknown/status')).status).toBe(400);
  });

  it('reports a throwing handler as FAILED', async () => {
    const { app } = createGuardianAdapter({
      onProvision: () => {
        throw new Error('disk full');
      },
    });
    const body = (await (
      await post(app, '/v1/provision', provisioningRequest(system({ policyId: 'p' })))
    ).json()) as { status: string; result: string };
    expect(body).toMatchObject({ status: 'FAILED', result: expect.stringContaining('disk full') });
  });

  it('unprovisions without a policy id and answers info null', async () => {
    const gone: string[] = [];
    const { app } = createGuardianAdapter({
      onProvision: () => undefined,
      onUnprovision: (p) => {
        gone.push(...p.guardedContractIds);
      },
    });
    const body = (await (
      await post(app, '/v1/unprovision', provisioningRequest(system()))
    ).json()) as { status: string; info: unknown };
    expect(body).toMatchObject({ status: 'COMPLETED', info: null });
    expect(gone).toEqual([ORDERS_PORT]);
  });

  it('validates (v1 and v2 async) with the built-in and the custom rules', async () => {
    const { app } = createGuardianAdapter({
      onProvision: () => undefined,
      validate: (p) => (p.contracts.length > 1 ? ['too many'] : []),
    });
    const ok = await post(app, '/v1/validate', provisioningRequest(system({ policyId: 'p' })));
    expect(await ok.json()).toEqual({ valid: true });
    const bad = await post(app, '/v1/validate', provisioningRequest(system({ guards: ['urn:x'] })));
    expect(await bad.json()).toEqual({
      valid: false,
      error: { errors: [expect.stringContaining('no component "urn:x"')] },
    });
    const v2 = await post(app, '/v2/validate', provisioningRequest(system({ guards: ['urn:x'] })));
    expect(v2.status).toBe(202);
    const token = (await v2.json()) as string;
    await new Promise((r) => setTimeout(r, 5));
    const status = (await (await app.request(`/v2/validate/${token}/status`)).json()) as {
      status: string;
      info: { publicInfo: { valid: boolean } };
    };
    expect(status.status).toBe('COMPLETED');
    expect(status.info.publicInfo.valid).toBe(false);
  });

  it('refuses at validate a contract with rules it cannot check, naming each and why; accepts it when asked to report them', async () => {
    const contract = {
      apiVersion: 'v3.1.0',
      kind: 'DataContract',
      id: 'orders',
      schema: [
        {
          name: 'orders',
          properties: [{ name: 'id', logicalType: 'string' }],
          quality: [
            { metric: 'rowcount', mustBeGreaterThan: 0 },
            { type: 'custom', engine: 'soda', implementation: 'row_count > 0' },
          ],
        },
      ],
      slaProperties: [{ property: 'retention', value: 1, unit: 'y' }],
    };
    const request = provisioningRequest(system({ policyId: 'p', contract }));
    const at = '$.descriptor.dataProduct.components[0].dataContract';
    const refusing = createGuardianAdapter({ onProvision: () => undefined });
    const refused = await (await post(refusing.app, '/v1/validate', request)).json();
    expect(refused).toEqual({
      valid: false,
      error: {
        errors: [
          `${at}.schema[0].quality[0]: the quality rule on orders: not checked, the library metric "rowcount" is unknown (did you mean "rowCount"?); the metrics are nullValues, missingValues, invalidValues, duplicateValues, rowCount (refused: this guardian accepts only rules it checks; with uncheckedRules: 'report' it reports them as not checked)`,
          expect.stringContaining(
            `${at}.schema[0].quality[1]: the quality rule on orders: not checked, a custom rule runs in its own engine (soda)`,
          ),
          expect.stringContaining(`${at}.slaProperties[0]: the SLA retention: not checked`),
        ],
      },
    });
    const seen: GuardianProvisioning[] = [];
    const reporting = createGuardianAdapter({
      uncheckedRules: 'report',
      onProvision: (p) => {
        seen.push(p);
      },
    });
    expect(await (await post(reporting.app, '/v1/validate', request)).json()).toEqual({
      valid: true,
    });
    const provisioned = (await (await post(reporting.app, '/v1/provision', request)).json()) as {
      status: string;
      logs: Array<{ level: string; message: string }>;
    };
    expect(provisioned.status).toBe('COMPLETED');
    expect(provisioned.logs.filter((l) => l.level === 'WARNING').map((l) => l.message)).toEqual([
      expect.stringContaining(
        `${at}.schema[0].quality[0]: the quality rule on orders: not checked`,
      ),
      expect.stringContaining(`${at}.schema[0].quality[1]:`),
      expect.stringContaining(`${at}.slaProperties[0]:`),
    ]);
    // The contract the guardian monitors keeps them, so every result reports them as not checked.
    expect(seen[0]?.contracts[0]?.parts[0]?.contract.unchecked.map((u) => u.key)).toEqual([
      'not_checked_schema_0_quality_0',
      'not_checked_schema_0_quality_1',
      'not_checked_slaProperties_0',
    ]);
  });

  it('answers updateacl and reverse-provisioning as unsupported, under a base path too', async () => {
    const { app } = createGuardianAdapter({
      onProvision: () => undefined,
      basePath: '/datamesh.specificprovisioner',
    });
    const acl = await post(app, '/datamesh.specificprovisioner/v1/updateacl', {
      refs: ['user:a'],
      provisionInfo: { request: '{}', result: '' },
    });
    expect(acl.status).toBe(400);
    expect(((await acl.json()) as { errors: string[] }).errors[0]).toMatch(/not supported/);
    const reverse = await post(app, '/datamesh.specificprovisioner/v1/reverse-provisioning', {
      useCaseTemplateId: 'x',
      environment: 'p',
    });
    expect(await reverse.json()).toMatchObject({ status: 'FAILED', updates: {} });
    expect(
      (await app.request('/datamesh.specificprovisioner/v1/reverse-provisioning/t/status')).status,
    ).toBe(400);
    expect((await app.request('/v1/provision', { method: 'POST' })).status).toBe(404);
  });

  it('exposes a plain fetch handler', async () => {
    const adapter = createGuardianAdapter({ onProvision: () => undefined });
    const res = await adapter.fetch(
      new Request('http://x/v1/provision', {
        method: 'POST',
        body: JSON.stringify(provisioningRequest(system({ policyId: 'p' }))),
      }),
    );
    expect(((await res.json()) as { status: string }).status).toBe('COMPLETED');
    expect(GUARDIAN_ID).toBeTruthy();
  });

  it('bounds the list of problems it answers', async () => {
    const { app } = createGuardianAdapter({ onProvision: () => undefined });
    const guards = Array.from({ length: 500 }, (_, i) => `urn:missing:${i}`);
    const res = await post(
      app,
      '/v1/provision',
      provisioningRequest(system({ policyId: 'p', guards })),
    );
    const body = (await res.json()) as { errors: string[] };
    expect(res.status).toBe(400);
    expect(body.errors).toHaveLength(101);
    expect(body.errors[100]).toBe('… and 400 more problems');
  });
});
