import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

const CONTRACT = 'urn:dmb:cmp:hostile:0:port';
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

function nestedDetails(levels: number): Record<string, unknown> {
  let record: Record<string, unknown> = { key: 'leaf', compliant: true };
  for (let i = 0; i < levels; i++) record = { key: `s${i}`, children: [record] };
  return { results: { root: [record] } };
}

function nestedComponents(levels: number): Record<string, unknown> {
  let component: Record<string, unknown> = { id: 'urn:dmb:cmp:hostile:0:c' };
  for (let i = 0; i < levels; i++)
    component = { id: `urn:dmb:cmp:hostile:0:c${i}`, components: [component] };
  return { id: 'urn:dmb:dp:hostile:0', kind: 'dataproduct', components: [component] };
}

/** One anchor of `anchorBytes` used `aliases` times: a small text, a large document. */
function aliasBomb(anchorBytes: number, aliases: number): string {
  const lines = [
    'id: urn:dmb:dp:hostile:bomb:0',
    'kind: dataproduct',
    `blob: &blob "${'x'.repeat(anchorBytes)}"`,
    'copies:',
  ];
  for (let i = 0; i < aliases; i++) lines.push('  - *blob');
  return `${lines.join('\n')}\n`;
}

describe('governance-api under hostile input: no 500, bounded answers', () => {
  let api: RunningGovernanceApi;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'governance-hostile-'));
    api = await startGovernanceApi({
      config: {
        ...testConfig,
        limits: { maxExpandedBytes: 4 * 1024 * 1024, maxPageBytes: MAX_PAGE_BYTES },
      },
      dataDir: dir,
      logger: createLogger('hostile', { level: 'silent' }),
    });
    const policy = await request(`${api.url}/v1/computational-governance/policies`, {
      key: KEYS.admin,
      body: { id: 'hostile', name: 'H', resourceType: 'dataproduct', trigger: 'passive' },
    });
    expect(policy.status).toBe(201);
  });
  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const plansTotal = async () =>
    (await (await request(`${api.url}/v1/provisioning/plans`, { key: KEYS.reader })).json()).meta
      .pagination.total as number;

  it('refuses a YAML descriptor whose aliases expand it beyond limits.maxExpandedBytes with 413, storing no plan', async () => {
    const before = await plansTotal();
    // 200 KB of text, 20 MB once expanded.
    const res = await request(`${api.url}/v1/provisioning/deploy`, {
      key: KEYS.coordinator,
      body: { environment: 'production', descriptor: aliasBomb(200_000, 99) },
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = await res.json();
    expect(problem.type).toBe('urn:dcg:governance:too_large');
    expect(problem.detail).toMatch(/expands to more than 4194304 bytes/);
    expect(problem.errors[0].path).toBe('$.descriptor');
    expect(await plansTotal()).toBe(before);
  });

  it('refuses details nested 1,100 levels deep with 422 naming the path, not 500', async () => {
    const res = await request(
      `${api.url}/v1/computational-governance/policies/hostile/evaluation-results?environment=production`,
      {
        key: KEYS.guardian,
        body: [
          {
            resource: { id: CONTRACT, descriptor: '' },
            result: { satisfiesPolicy: true, details: nestedDetails(1100) },
          },
        ],
      },
    );
    expect(res.status).toBe(422);
    const problem = await res.json();
    expect(problem.type).toBe('urn:dcg:governance:too_deep');
    expect(problem.errors[0].path).toMatch(
      /^\$\[0\]\.result\.details\.results\.root\[0\]\.children/,
    );
  });

  it('refuses descriptors with components nested 1,000 deep, as JSON and as YAML text, with 422', async () => {
    const before = await plansTotal();
    const asObject = await request(`${api.url}/v1/provisioning/deploy`, {
      key: KEYS.coordinator,
      body: { environment: 'production', descriptor: nestedComponents(1000) },
    });
    expect(asObject.status).toBe(422);
    const asFlowYaml = await request(`${api.url}/v1/provisioning/deploy`, {
      key: KEYS.coordinator,
      body: {
        environment: 'production',
        descriptor: `a: ${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      },
    });
    expect(asFlowYaml.status).toBe(422);
    const flowProblem = await asFlowYaml.json();
    expect(flowProblem.type).toBe('urn:dcg:governance:too_deep');
    expect(flowProblem.detail).toMatch(/deeper than 128 levels/);
    const asYamlJson = await request(`${api.url}/v1/provisioning/deploy`, {
      key: KEYS.coordinator,
      body: { environment: 'production', descriptor: JSON.stringify(nestedComponents(1000)) },
    });
    expect(asYamlJson.status).toBe(422);
    expect(await plansTotal()).toBe(before);
  });

  it('cuts history pages of large results to limits.maxPageBytes, with nextOffset, and walks them all', async () => {
    const big = (i: number) => [
      {
        resource: { id: CONTRACT, descriptor: 'd'.repeat(400_000) },
        result: {
          satisfiesPolicy: i % 2 === 0,
          details: { results: { root: [{ key: `k${i}`, compliant: true }] } },
        },
      },
    ];
    for (let i = 0; i < 12; i++) {
      const res = await request(
        `${api.url}/v1/computational-governance/policies/hostile/evaluation-results?environment=production`,
        { key: KEYS.guardian, body: big(i) },
      );
      expect(res.status).toBe(201);
    }
    const seen: number[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const res = await request(
        `${api.url}/v1/computational-governance/data-contracts/${encodeURIComponent(CONTRACT)}/evaluation-results?limit=1000&offset=${offset}`,
        { key: KEYS.reader },
      );
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text.length).toBeLessThanOrEqual(MAX_PAGE_BYTES + 1024);
      const page = JSON.parse(text);
      if (page.meta.pagination.nextOffset !== undefined) {
        expect(page.meta.pagination.truncated).toBe(true);
      }
      seen.push(...page.data.map((r: { seq: number }) => r.seq));
      offset = page.meta.pagination.nextOffset;
      pages++;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(12);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
  });
});
