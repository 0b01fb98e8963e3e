import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNPROCESSABLE_MESSAGE } from '@dcg/contract-schema';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';
import { DEMO_ADAPTER_PATH } from './demo-tech-adapter';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

const CONTRACT = 'urn:dmb:cmp:finance:invoices:0:orders-port';
const result = (
  satisfiesPolicy: boolean,
  details: unknown = { results: { root: [{ key: 'id', compliant: satisfiesPolicy }] } },
) => [{ resource: { id: CONTRACT, descriptor: '' }, result: { satisfiesPolicy, details } }];

describe('governance-api over HTTP (SQLite)', () => {
  let api: RunningGovernanceApi;
  let dir: string;
  let url: string;
  let passive: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'governance-api-'));
    api = await startGovernanceApi({
      config: testConfig,
      dataDir: dir,
      demo: true,
      logger: createLogger('test', { level: 'silent' }),
    });
    url = api.url;
    const res = await request(`${url}/v1/computational-governance/policies`, {
      key: KEYS.admin,
      body: { id: 'passive-1', name: 'Contracts', resourceType: 'dataproduct', trigger: 'passive' },
    });
    passive = (await res.json()).id;
  });
  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves health, readiness, the OpenAPI document and its reference page', async () => {
    expect(await (await request(`${url}/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await request(`${url}/ready`)).json()).toMatchObject({
      ready: true,
      storage: 'sqlite',
    });
    const doc = await (await request(`${url}/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/infrastructure-templates',
        '/api/builder/register',
        '/v1/computational-governance/policies/{policyId}/evaluation-results',
        '/v1/provisioning/deploy',
        '/v1/marketplace/data-contracts/{contractId}/compliance',
      ]),
    );
    expect(doc.components.schemas.InfrastructureTemplate).toBeDefined();
    // Every $ref of the document resolves inside it.
    const refs: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === '$ref' && typeof inner === 'string') refs.push(inner);
          else walk(inner);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(5);
    const dangling = refs.filter(
      (ref) =>
        ref
          .replace(/^#\//, '')
          .split('/')
          .reduce<unknown>(
            (node, key) => (node as Record<string, unknown> | undefined)?.[key],
            doc,
          ) === undefined,
    );
    expect(dangling).toEqual([]);
    const page = await request(`${url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    // Server-rendered: every operation of the document has a section, and each one shows an
    // example of at least one answer.
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) =>
        Object.keys(item)
          .filter((m) => ['get', 'put', 'post', 'delete', 'patch'].includes(m))
          .map((m) => ({ path, id: (item[m] as { operationId: string }).operationId })),
    );
    expect(operations.length).toBeGreaterThan(20);
    for (const { id } of operations) {
      const start = html.indexOf(`<section class="operation" id="op-${id}"`);
      expect(start, id).toBeGreaterThan(0);
      const section = html.slice(start, html.indexOf('</section>', start));
      expect(section, id).toContain('<pre tabindex="0"');
    }
    expect(html).not.toContain('<script');
  });

  it('answers 401 (with WWW-Authenticate) and 403 as problem details, and echoes request ids', async () => {
    const none = await request(`${url}/v1/computational-governance/policies`, {
      headers: { 'x-request-id': 'req-42' },
    });
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toContain('application/problem+json');
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.headers.get('x-request-id')).toBe('req-42');
    const wrongRole = await request(`${url}/v1/infrastructure-templates`, {
      key: KEYS.guardian,
      body: { id: 'x', name: 'x', url: 'http://x' },
    });
    expect(wrongRole.status).toBe(403);
    expect((await wrongRole.json()).detail).toContain('platform-admin');
    const reader = await request(`${url}/v1/provisioning/deploy`, { key: KEYS.reader, body: {} });
    expect(reader.status).toBe(403);
  });

  it('registers guardian templates: 201, then 200 without duplicate policies; 422 for rule breaches; 400 for shapes', async () => {
    const body = {
      id: 'urn:dmb:itm:http-guardian:1',
      name: 'HTTP guardian',
      url: 'http://127.0.0.1:9/x',
      properties: {
        dataContractGuardian: {
          policies: [
            { resourceType: 'biproject', spec: { name: 'BI', description: 'd' } },
            { resourceType: 'dataproduct', spec: { id: passive } },
          ],
        },
      },
    };
    const first = await request(`${url}/v1/infrastructure-templates`, { key: KEYS.admin, body });
    expect(first.status).toBe(201);
    const registered = await first.json();
    expect(registered.policies).toHaveLength(2);
    const again = await request(`${url}/api/builder/register`, { key: KEYS.admin, body });
    expect(again.status).toBe(200);
    expect((await again.json()).policies).toEqual(registered.policies);
    const got = await request(`${url}/v1/infrastructure-templates/${encodeURIComponent(body.id)}`, {
      key: KEYS.reader,
    });
    expect((await got.json()).template).toEqual(body);

    const dup = await request(`${url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      body: {
        ...body,
        id: 'urn:dmb:itm:dup:1',
        properties: {
          dataContractGuardian: {
            policies: [
              { resourceType: 'dataproduct', spec: { id: passive } },
              { resourceType: 'dataproduct', spec: { id: passive } },
            ],
          },
        },
      },
    });
    expect(dup.status).toBe(422);
    expect((await dup.json()).detail).toContain('dataproduct');
    const missing = await request(`${url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      body: {
        ...body,
        id: 'urn:dmb:itm:missing:1',
        properties: {
          dataContractGuardian: {
            policies: [{ resourceType: 'dataproduct', spec: { id: 'no-such-policy' } }],
          },
        },
      },
    });
    expect(missing.status).toBe(422);
    const problem = await missing.json();
    expect(problem.detail).toContain('no-such-policy');
    expect(problem.errors[0].path).toBe('$.properties.dataContractGuardian.policies[0].spec.id');
    expect(problem.errors[0].code).toBe('policy_not_found');
    // A passive policy of another resource type would hand a guardian the wrong policy.
    const crossType = await request(`${url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      body: {
        ...body,
        id: 'urn:dmb:itm:cross:1',
        properties: {
          dataContractGuardian: {
            policies: [{ resourceType: 'biproject', spec: { id: passive } }],
          },
        },
      },
    });
    expect(crossType.status).toBe(422);
    expect((await crossType.json()).errors).toEqual([
      {
        code: 'policy_resource_type_mismatch',
        path: '$.properties.dataContractGuardian.policies[0].spec.id',
        message: `policy "${passive}" is a policy of resource type dataproduct, not biproject`,
      },
    ]);
    // Not an object at all (a TypeError inside the schema answered 500 before): a shape error,
    // 400 with the path like `{ policies: null }`.
    for (const guardian of [null, 7, 'x', [], { policies: null }]) {
      const notObject = await request(`${url}/v1/infrastructure-templates`, {
        key: KEYS.admin,
        body: { ...body, id: 'urn:dmb:itm:null:1', properties: { dataContractGuardian: guardian } },
      });
      expect(notObject.status).toBe(400);
      expect((await notObject.json()).errors.map((e: { path: string }) => e.path)).toEqual([
        guardian === null || typeof guardian !== 'object' || Array.isArray(guardian)
          ? '$.properties.dataContractGuardian'
          : '$.properties.dataContractGuardian.policies',
      ]);
    }
    const bad = await request(`${url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      body: { id: 7 },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['$.id', '$.name', '$.url']),
    );
    expect(
      (await request(`${url}/v1/infrastructure-templates/nope`, { key: KEYS.admin })).status,
    ).toBe(404);
    const notJson = await request(`${url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      rawBody: '{"id":',
    });
    expect(notJson.status).toBe(400);
  });

  it('lists policies with filters and paging', async () => {
    await request(`${url}/v1/computational-governance/policies`, {
      key: KEYS.admin,
      body: { id: 'active-1', name: 'Active SLA', resourceType: 'dataproduct', trigger: 'active' },
    });
    const page = await (
      await request(`${url}/v1/computational-governance/policies?trigger=active&limit=1`, {
        key: KEYS.reader,
      })
    ).json();
    expect(page.data.map((p: { id: string }) => p.id)).toEqual(['active-1']);
    expect(page.meta.pagination).toEqual({ limit: 1, offset: 0, total: 1 });
    const text = await (
      await request(`${url}/v1/computational-governance/policies?text=SLA`, { key: KEYS.reader })
    ).json();
    expect(text.data.map((p: { id: string }) => p.id)).toContain('active-1');
    expect(
      (await request(`${url}/v1/computational-governance/policies?limit=0`, { key: KEYS.reader }))
        .status,
    ).toBe(400);
    expect(
      (await request(`${url}/v1/computational-governance/policies?trigger=x`, { key: KEYS.reader }))
        .status,
    ).toBe(400);
    expect(
      (await request(`${url}/v1/computational-governance/policies/active-1`, { key: KEYS.reader }))
        .status,
    ).toBe(200);
    expect(
      (await request(`${url}/v1/computational-governance/policies/ghost`, { key: KEYS.reader }))
        .status,
    ).toBe(404);
    const dup = await request(`${url}/v1/computational-governance/policies`, {
      key: KEYS.admin,
      body: { id: 'active-1', name: 'x', resourceType: 'x', trigger: 'active' },
    });
    expect(dup.status).toBe(409);
  });

  it('accepts evaluation results with the documented errors', async () => {
    const at = (policy: string, query = '?environment=production') =>
      `${url}/v1/computational-governance/policies/${encodeURIComponent(policy)}/evaluation-results${query}`;
    const ok = await request(at(passive), { key: KEYS.guardian, body: result(false) });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({
      status: 'violated',
      detailsConform: true,
      contractId: CONTRACT,
    });
    expect((await request(at('ghost'), { key: KEYS.guardian, body: result(true) })).status).toBe(
      404,
    );
    expect((await request(at('active-1'), { key: KEYS.guardian, body: result(true) })).status).toBe(
      409,
    );
    const noEnvironment = await request(at(passive, ''), {
      key: KEYS.guardian,
      body: result(true),
    });
    expect(noEnvironment.status).toBe(400);
    // The domain names the argument; the app says where it travels.
    expect((await noEnvironment.json()).errors).toEqual([
      { code: 'required', path: '$.query.environment', message: 'is required' },
    ]);
    const two = await request(at(passive), {
      key: KEYS.guardian,
      body: [...result(true), ...result(true)],
    });
    expect(two.status).toBe(400);
    expect((await two.json()).errors[0].path).toBe('$');
    const resource = await request(at(passive), {
      key: KEYS.guardian,
      body: [{ resource: { id: 5 }, result: { satisfiesPolicy: true, details: { results: {} } } }],
    });
    expect((await resource.json()).errors.map((e: { path: string }) => e.path)).toEqual([
      '$[0].resource.id',
      '$[0].resource.descriptor',
    ]);
    expect(
      (await request(at(passive), { key: KEYS.limitedGuardian, body: result(true) })).status,
    ).toBe(403);
    expect((await request(at(passive), { key: KEYS.coordinator, body: result(true) })).status).toBe(
      403,
    );

    const broken = await request(at(passive), {
      key: KEYS.guardian,
      body: result(true, { results: { root: [{ key: 'a', issues: ['x'] }] } }),
    });
    expect(broken.status).toBe(201);
    const accepted = await broken.json();
    expect(accepted).toMatchObject({
      detailsConform: false,
      status: 'unprocessable',
      message: UNPROCESSABLE_MESSAGE,
    });
    expect(accepted.schemaErrors[0].path).toMatch(/^\$\[0\]\.result\.details\.results\.root\[0\]/);
    const compliance = await (
      await request(
        `${url}/v1/marketplace/data-contracts/${encodeURIComponent(CONTRACT)}/compliance?environment=production`,
      )
    ).json();
    expect(compliance).toMatchObject({
      status: 'unprocessable',
      message: UNPROCESSABLE_MESSAGE,
      policyId: passive,
    });
    // The compliance view locates the errors in the submitted body, as the answer did.
    expect(compliance.schemaErrors).toEqual(accepted.schemaErrors);
    expect(
      (
        await request(
          `${url}/v1/marketplace/data-contracts/${encodeURIComponent(CONTRACT)}/compliance`,
        )
      ).status,
    ).toBe(400);

    const history = await (
      await request(
        `${url}/v1/computational-governance/data-contracts/${encodeURIComponent(CONTRACT)}/evaluation-results?limit=1`,
        { key: KEYS.reader },
      )
    ).json();
    expect(history.meta.pagination).toEqual({ limit: 1, offset: 0, total: 2, nextOffset: 1 });
    expect(history.data[0].detailsConform).toBe(false);
  });

  it('concurrent submissions for one contract leave the last stored one current', async () => {
    const contract = 'urn:dmb:cmp:race:0:port';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        request(
          `${url}/v1/computational-governance/policies/${passive}/evaluation-results?environment=race`,
          {
            key: KEYS.guardian,
            body: [
              {
                resource: { id: contract, descriptor: '' },
                result: {
                  satisfiesPolicy: i % 2 === 0,
                  details: { results: { root: [{ key: `n${i}`, compliant: true }] } },
                },
              },
            ],
          },
        ).then((r) => r.json()),
      ),
    );
    const last = answers.reduce((a, b) => (a.seq > b.seq ? a : b));
    const compliance = await (
      await request(
        `${url}/v1/marketplace/data-contracts/${encodeURIComponent(contract)}/compliance?environment=race`,
      )
    ).json();
    expect(compliance.evaluatedAt).toBe(last.receivedAt);
    expect(compliance.status).toBe(last.status);
    const history = await (
      await request(
        `${url}/v1/computational-governance/data-contracts/${encodeURIComponent(contract)}/evaluation-results?limit=100`,
        { key: KEYS.reader },
      )
    ).json();
    expect(history.meta.pagination.total).toBe(30);
    expect(history.data[0].seq).toBe(last.seq);
  });

  it('deploys through the coordinator (202 + plan), shows the instance in the marketplace, and undeploys', async () => {
    const adapter = `${url}${DEMO_ADAPTER_PATH}`;
    await request(`${url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      body: { id: 'urn:dmb:itm:port:9', name: 'Port', url: adapter },
    });
    const guardianTemplate = await (
      await request(`${url}/v1/infrastructure-templates`, {
        key: KEYS.admin,
        body: {
          id: 'urn:dmb:itm:guard:9',
          name: 'Guard',
          url: adapter,
          properties: {
            dataContractGuardian: {
              policies: [{ resourceType: 'dataproduct', spec: { name: 'G9', description: '' } }],
            },
          },
        },
      })
    ).json();
    const descriptor = [
      'id: urn:dmb:dp:sales:leads:0',
      'name: Leads',
      'kind: dataproduct',
      'version: 1.0.0',
      'components:',
      '  - id: urn:dmb:cmp:sales:leads:0:port',
      '    name: Leads port',
      '    kind: outputport',
      '    __dataContractEnabled: true',
      '    consumable: true',
      '    infrastructureTemplateId: urn:dmb:itm:port:9',
      '  - id: urn:dmb:cmp:sales:leads:0:guardian',
      '    kind: workload',
      '    infrastructureTemplateId: urn:dmb:itm:guard:9',
      '    __dataContractGuardianSpec: { guards: [ { dataContractId: "urn:dmb:cmp:sales:leads:0:port" } ] }',
    ].join('\n');
    const started = await request(`${url}/v1/provisioning/deploy`, {
      key: KEYS.coordinator,
      body: { environment: 'qa', descriptor },
    });
    expect(started.status).toBe(202);
    const { id } = await started.json();
    expect(started.headers.get('location')).toBe(`/v1/provisioning/plans/${id}`);
    let plan = await (
      await request(`${url}/v1/provisioning/plans/${id}`, { key: KEYS.reader })
    ).json();
    for (let i = 0; i < 100 && plan.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      plan = await (
        await request(`${url}/v1/provisioning/plans/${id}`, { key: KEYS.reader })
      ).json();
    }
    expect(plan.status).toBe('completed');
    expect(plan.tasks[1].info.privateInfo.__dataContractGuardian.policyId).toBe(
      guardianTemplate.policies[0].policyId,
    );
    const instance = await (
      await request(
        `${url}/v1/marketplace/instances/${encodeURIComponent('urn:dmb:dp:sales:leads:0')}?environment=qa`,
      )
    ).json();
    expect(instance.components[0]).toMatchObject({
      id: 'urn:dmb:cmp:sales:leads:0:port',
      dataContract: true,
      compliance: { status: 'unknown' },
    });
    // The deployed descriptor, public like the instance, without the adapters' private info.
    const descriptorUrl = `${url}/v1/marketplace/instances/${encodeURIComponent('urn:dmb:dp:sales:leads:0')}/descriptor`;
    const deployed = await request(`${descriptorUrl}?environment=qa`);
    expect(deployed.status).toBe(200);
    const deployedBody = await deployed.json();
    expect(deployedBody).toMatchObject({
      systemId: 'urn:dmb:dp:sales:leads:0',
      environment: 'qa',
      planId: id,
      descriptor: {
        id: 'urn:dmb:dp:sales:leads:0',
        components: [{ id: 'urn:dmb:cmp:sales:leads:0:port', __dataContractEnabled: true }, {}],
      },
    });
    expect(JSON.stringify(deployedBody)).not.toContain('privateInfo');
    expect((await request(descriptorUrl)).status).toBe(200);
    const elsewhere = await request(`${descriptorUrl}?environment=production`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await elsewhere.json()).detail).toContain('not deployed in environment "production"');
    const list = await (await request(`${url}/v1/marketplace/instances?environment=qa`)).json();
    expect(list.data.map((i: { systemId: string }) => i.systemId)).toEqual([
      'urn:dmb:dp:sales:leads:0',
    ]);

    const bad = await request(`${url}/v1/provisioning/deploy`, {
      key: KEYS.coordinator,
      body: { environment: 'qa', descriptor: 'kind: [' },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].path).toBe('$.descriptor');

    const undeploy = await request(`${url}/v1/provisioning/undeploy`, {
      key: KEYS.coordinator,
      body: { environment: 'qa', systemId: 'urn:dmb:dp:sales:leads:0' },
    });
    expect(undeploy.status).toBe(202);
    await api.governance.coordinator.idle();
    expect(
      (
        await request(
          `${url}/v1/marketplace/instances/${encodeURIComponent('urn:dmb:dp:sales:leads:0')}?environment=qa`,
        )
      ).status,
    ).toBe(404);
    expect((await request(`${descriptorUrl}?environment=qa`)).status).toBe(404);
  });

  it('lists plans newest first, filtered by state and environment, paged', async () => {
    const list = async (query: string) =>
      request(`${url}/v1/provisioning/plans${query}`, { key: KEYS.reader });
    const qa = await (await list('?environment=qa')).json();
    // The deploy and undeploy of the previous test, newest first.
    expect(qa.data.map((p: { operation: string }) => p.operation)).toEqual(['undeploy', 'deploy']);
    expect(qa.meta.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
    const first = await (await list('?environment=qa&limit=1')).json();
    expect(first.meta.pagination).toEqual({ limit: 1, offset: 0, total: 2, nextOffset: 1 });
    const completed = await (await list('?environment=qa&state=completed&limit=1&offset=1')).json();
    expect(completed.data.map((p: { operation: string }) => p.operation)).toEqual(['deploy']);
    expect(completed.data[0].tasks.length).toBe(2);
    expect(completed.meta.pagination).toEqual({ limit: 1, offset: 1, total: 2 });
    expect((await (await list('?environment=qa&status=failed')).json()).data).toEqual([]);
    expect((await (await list('?environment=nowhere')).json()).meta.pagination.total).toBe(0);
    const bad = await list('?status=finished');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect((await list('?status=completed&state=failed')).status).toBe(400);
    expect((await list('?limit=0')).status).toBe(400);
    expect((await request(`${url}/v1/provisioning/plans`)).status).toBe(401);
  });

  it('streams deploy and undeploy events to subscribers (Server-Sent Events)', async () => {
    expect((await request(`${url}/v1/marketplace/events`)).status).toBe(401);
    const controller = new AbortController();
    const res = await fetch(`${url}/v1/marketplace/events`, {
      headers: { authorization: `Bearer ${KEYS.reader}` },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        text += value;
      }
    };
    await until('event: ready');
    const descriptor = {
      id: 'urn:dmb:dp:events:0',
      kind: 'dataproduct',
      components: [
        { id: 'urn:dmb:cmp:events:0:port', infrastructureTemplateId: 'urn:dmb:itm:port:9' },
      ],
    };
    await request(`${url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      body: { id: 'urn:dmb:itm:port:9', name: 'Port', url: `${url}${DEMO_ADAPTER_PATH}` },
    });
    await request(`${url}/v1/provisioning/deploy`, {
      key: KEYS.coordinator,
      body: { environment: 'events', descriptor },
    });
    await until('"systemId":"urn:dmb:dp:events:0"');
    expect(text).toContain('event: system.deployed');
    await request(`${url}/v1/provisioning/undeploy`, {
      key: KEYS.coordinator,
      body: { environment: 'events', descriptor },
    });
    await until('event: system.undeployed');
    controller.abort();
  });

  it('seeds the demo: a deployed system with one contract in each state, and serves the pages', async () => {
    const list = await (
      await request(`${url}/v1/marketplace/instances?environment=production`)
    ).json();
    const demo = list.data.find(
      (i: { systemId: string }) => i.systemId === 'urn:dmb:dp:finance:orders:0',
    );
    const states = demo.components
      .filter((c: { dataContract: boolean }) => c.dataContract)
      .map((c: { compliance: { status: string } }) => c.compliance.status);
    expect(states.sort()).toEqual(['compliant', 'unprocessable', 'violated']);
    const page = await request(`${url}/marketplace`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Orders');
  });
});

describe('request size limit', () => {
  let api: RunningGovernanceApi;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'governance-limit-'));
    api = await startGovernanceApi({
      config: { ...testConfig, limits: { maxBodyBytes: 2048 } },
      dataDir: dir,
      logger: createLogger('test', { level: 'silent' }),
    });
  });
  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 413 problems for declared and for streamed (chunked) bodies over the limit', async () => {
    const big = JSON.stringify({ id: 'x'.repeat(3000), name: 'n', url: 'http://x' });
    const declared = await request(`${api.url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      rawBody: big,
    });
    expect(declared.status).toBe(413);
    expect(declared.headers.get('content-type')).toContain('application/problem+json');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++)
          controller.enqueue(new TextEncoder().encode(big.slice(i * 1000, (i + 1) * 1000)));
        controller.close();
      },
    });
    const chunked = await fetch(`${api.url}/v1/computational-governance/policies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.admin}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const small = await request(`${api.url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      body: { id: 'urn:dmb:itm:small:1', name: 'n', url: 'http://x' },
    });
    expect(small.status).toBe(201);
  });
});
