import { createGovernance } from '@dcg/governance';
import { openSqliteStore } from '@dcg/governance/sqlite';
import {
  AcceptedEvaluationResultSchema,
  ContractComplianceSchema,
  DeployedDescriptorSchema,
  EmbeddingJobSchema,
  EmbeddingsStatusSchema,
  EvaluationResultHistorySchema,
  MarketplaceInstanceListSchema,
  MarketplaceInstanceSchema,
  PolicyPageSchema,
  PolicySchema,
  SearchResultSchema,
} from '@dcg/governance-schema';
import { createLogger, resolveApiKeys } from '@dcg/http-kit';
import { type EmbeddingProvider, MarketplaceSearch } from '@dcg/marketplace-search';
import { openSqliteEmbeddingStore } from '@dcg/marketplace-search/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { KEYS, testConfig } from './__fixtures__/test-keys';
import { buildGovernanceApp } from './app';
import { GovernanceApiConfigSchema } from './config';
import { DEMO_CONTRACTS, DEMO_ENVIRONMENT, DEMO_SYSTEM_ID, seedDemo } from './demo';
import { demoTechAdapter } from './demo-tech-adapter';

// Every route whose answer a client reads, called on the real app in process (app.request) over
// the demo's data, and its body parsed with the schema @dcg/marketplace-client and @dcg/mcp-tools
// check it with: the wire schemas of @dcg/governance-schema. The last test checks that no
// documented operation answering one of those schemas is left out.

const ORIGIN = 'http://governance.test';

/** Words hashed into 64 dimensions: a real, deterministic provider for a search by meaning. */
const hashingProvider: EmbeddingProvider = {
  model: 'word-hash-64',
  dimensions: 64,
  async embed(texts) {
    return texts.map((text) => {
      const vector = new Float32Array(64);
      for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
        let hash = 0;
        for (const char of word) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
        vector[hash % 64]! += 1;
      }
      return vector;
    });
  },
};

let app: ReturnType<typeof buildGovernanceApp>;
let close: () => Promise<void>;
const covered = new Set<string>();

async function call<S extends z.ZodMiniType>(
  operationId: string,
  schema: S,
  path: string,
  init: { method?: string; key?: string; body?: unknown; status?: number } = {},
): Promise<z.output<S>> {
  const res = await app.request(`${ORIGIN}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const body: unknown = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(init.status ?? 200);
  const parsed = schema.safeParse(body);
  expect(parsed.error?.issues ?? [], `${operationId}: ${JSON.stringify(body)}`).toEqual([]);
  covered.add(operationId);
  return parsed.data as z.output<S>;
}

beforeAll(async () => {
  const config = GovernanceApiConfigSchema.parse(testConfig);
  const { leaseMs: _lease, ...adapters } = config.provisioning;
  // The coordinator reaches the demo tech adapter through the app itself: no socket.
  const governance = createGovernance(await openSqliteStore({ file: ':memory:' }), {
    adapters: { ...adapters, fetch: (input, init) => Promise.resolve(app.request(input, init)) },
    results: config.evaluationResults,
  });
  const store = await openSqliteEmbeddingStore({ file: ':memory:' });
  const search = new MarketplaceSearch({
    store,
    provider: hashingProvider,
    source: { listInstances: (filter) => governance.store.listInstances(filter) },
    refreshIntervalMs: 0,
  });
  await search.start();
  const logger = createLogger('test', { level: 'silent' });
  app = buildGovernanceApp({
    governance,
    apiKeys: resolveApiKeys(config.auth.apiKeys, { env: {} }).keys,
    logger,
    maxBodyBytes: config.limits.maxBodyBytes,
    marketplaceSearch: search,
    extras: [demoTechAdapter()],
  });
  await seedDemo(governance, ORIGIN, logger, { DCG_DEMO_GUARDIAN_URL: 'off' });
  for (const instance of await governance.store.listInstances({}))
    await search.onDeployed(instance);
  close = async () => {
    await search.close();
    await store.close();
    await governance.store.close();
  };
});
afterAll(() => close?.());

describe('governance-api answers parse with the wire schemas its clients use', () => {
  it('marketplace instances, one instance and its deployed descriptor', async () => {
    const list = await call(
      'listMarketplaceInstances',
      MarketplaceInstanceListSchema,
      `/v1/marketplace/instances?environment=${DEMO_ENVIRONMENT}`,
    );
    expect(list.data.map((instance) => instance.systemId)).toContain(DEMO_SYSTEM_ID);
    const one = await call(
      'getMarketplaceInstance',
      MarketplaceInstanceSchema,
      `/v1/marketplace/instances/${encodeURIComponent(DEMO_SYSTEM_ID)}`,
    );
    expect(one.components.filter((c) => c.dataContract).length).toBeGreaterThanOrEqual(3);
    const descriptor = await call(
      'getMarketplaceInstanceDescriptor',
      DeployedDescriptorSchema,
      `/v1/marketplace/instances/${encodeURIComponent(DEMO_SYSTEM_ID)}/descriptor`,
    );
    expect(descriptor.systemId).toBe(DEMO_SYSTEM_ID);
  });

  it('the compliance of a contract in each state, tree nodes with `section`, schema errors with `code`', async () => {
    const views = await Promise.all(
      Object.entries(DEMO_CONTRACTS).map(async ([state, contractId]) => {
        const view = await call(
          'getDataContractCompliance',
          ContractComplianceSchema,
          `/v1/marketplace/data-contracts/${encodeURIComponent(contractId)}/compliance?environment=${DEMO_ENVIRONMENT}`,
        );
        expect(view.status).toBe(state);
        return view;
      }),
    );
    const tree = views.flatMap((view) => view.tree);
    expect(tree.length).toBeGreaterThan(0);
    expect(tree.every((node) => typeof node.section === 'boolean')).toBe(true);
    const unprocessable = views.find((view) => view.status === 'unprocessable');
    expect(unprocessable?.schemaErrors?.[0]?.code).toEqual(expect.any(String));
  });

  it('policies: a page, one policy, a created one', async () => {
    const page = await call(
      'listPolicies',
      PolicyPageSchema,
      '/v1/computational-governance/policies',
      { key: KEYS.reader },
    );
    expect(page.data.length).toBeGreaterThan(0);
    const created = await call(
      'registerPolicy',
      PolicySchema,
      '/v1/computational-governance/policies',
      {
        key: KEYS.admin,
        body: { id: 'wire-1', name: 'Wire', resourceType: 'dataproduct', trigger: 'passive' },
        status: 201,
      },
    );
    const one = await call(
      'getPolicy',
      PolicySchema,
      `/v1/computational-governance/policies/${created.id}`,
      { key: KEYS.reader },
    );
    expect(one).toEqual(created);
  });

  it('evaluation results: an accepted submission (details breaking A4) and the history', async () => {
    const accepted = await call(
      'submitEvaluationResult',
      AcceptedEvaluationResultSchema,
      `/v1/computational-governance/policies/wire-1/evaluation-results?environment=${DEMO_ENVIRONMENT}`,
      {
        key: KEYS.guardian,
        body: [
          {
            resource: { id: DEMO_CONTRACTS.compliant, descriptor: '' },
            result: { satisfiesPolicy: true, details: { results: { root: [{ key: 'x' }] } } },
          },
        ],
        status: 201,
      },
    );
    expect(accepted.detailsConform).toBe(false);
    expect(accepted.schemaErrors?.[0]?.code).toEqual(expect.any(String));
    const history = await call(
      'listEvaluationResults',
      EvaluationResultHistorySchema,
      `/v1/computational-governance/data-contracts/${encodeURIComponent(DEMO_CONTRACTS.compliant)}/evaluation-results?environment=${DEMO_ENVIRONMENT}`,
      { key: KEYS.reader },
    );
    expect(history.data[0]?.seq).toBe(accepted.seq);
  });

  it('search by meaning (`hybrid`), embeddings jobs and status', async () => {
    const job = await call(
      'createEmbeddings',
      EmbeddingJobSchema,
      '/marketplace/embeddingsSearch/createEmbeddings',
      { key: KEYS.admin, body: { environment: DEMO_ENVIRONMENT }, status: 202 },
    );
    await call(
      'getEmbeddingsJob',
      EmbeddingJobSchema,
      `/marketplace/embeddingsSearch/jobs/${encodeURIComponent(job.id)}`,
      { key: KEYS.reader },
    );
    for (let i = 0; i < 200; i++) {
      const status = await call(
        'getEmbeddingsStatus',
        EmbeddingsStatusSchema,
        `/marketplace/embeddingsSearch/status?environment=${DEMO_ENVIRONMENT}`,
      );
      if (status.runningJobs.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const result = await call(
      'searchMarketplace',
      SearchResultSchema,
      `/v1/marketplace/search?q=orders&environment=${DEMO_ENVIRONMENT}`,
    );
    expect(result.mode).toBe('hybrid');
    expect(result.hits[0]?.systemId).toBe(DEMO_SYSTEM_ID);
  });

  it('covers every documented operation that answers a governance-schema wire schema', async () => {
    const document = (await (await app.request(`${ORIGIN}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; responses: object }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    // The wire schemas are documented in full, the schemas they share as components.
    const { schemas } = document.components;
    expect(schemas.ContractCompliance?.properties?.tree).toMatchObject({
      items: { $ref: '#/components/schemas/ComplianceTreeNode' },
    });
    expect(Object.keys(schemas.ComplianceTreeNode?.properties ?? {})).toContain('section');
    const wire = new Set([
      'MarketplaceInstanceList',
      'MarketplaceInstance',
      'DeployedDescriptor',
      'ContractCompliance',
      'Policy',
      'PolicyPage',
      'AcceptedEvaluationResult',
      'EvaluationResultHistory',
      'MarketplaceSearchResult',
      'EmbeddingJob',
      'EmbeddingsStatus',
    ]);
    const answering = Object.values(document.paths)
      .flatMap((operations) => Object.values(operations))
      .filter((operation) =>
        [...JSON.stringify(operation.responses).matchAll(/#\/components\/schemas\/(\w+)/g)].some(
          (match) => wire.has(match[1] ?? ''),
        ),
      )
      .map((operation) => operation.operationId);
    expect(answering.length).toBeGreaterThanOrEqual(wire.size);
    expect(answering.filter((id) => !covered.has(id))).toEqual([]);
  });
});
