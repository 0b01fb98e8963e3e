import { createKgClient } from '@dcg/kg-client';
import { createMarketplaceClient } from '@dcg/marketplace-client';
import {
  Client,
  ResourceNotFoundError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Backends,
  DEMO,
  GOVERNANCE_KEY,
  startBackends,
} from './__fixtures__/backends.testkit';
import { createDcgMcpServer } from './create-dcg-mcp-server';
import { type DcgMcpDeps, DEFAULT_CACHE_HINTS, DEFAULT_LIMITS } from './dcg-mcp-deps';

type ToolAnswer = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
};

/** A 2026-07-28 client whose HTTP requests go to the handler in process. */
async function connect(handler: McpHttpHandler): Promise<Client> {
  const client = new Client(
    { name: 'mcp-tools-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
    fetch: (input, init) => handler.fetch(new Request(input, init)),
  });
  await client.connect(transport);
  return client;
}

describe('the dcg MCP tools against governance-api and kg-api with demo data', () => {
  let backends: Backends;
  let deps: DcgMcpDeps;
  let handler: McpHttpHandler;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolAnswer;

  beforeAll(async () => {
    backends = await startBackends();
    deps = {
      marketplace: createMarketplaceClient({
        baseUrl: backends.governance.url,
        apiKey: GOVERNANCE_KEY,
      }),
      kg: createKgClient({ baseUrl: backends.kg.url }),
      limits: DEFAULT_LIMITS,
      cacheHints: DEFAULT_CACHE_HINTS,
    };
    handler = createMcpHandler(() => createDcgMcpServer(deps));
    client = await connect(handler);
  });
  afterAll(async () => {
    await client?.close();
    await handler?.close();
    await backends?.close();
  });

  it('speaks 2026-07-28 and lists every tool with schemas and truthful annotations', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'describe_concepts',
      'get_component',
      'get_contract_compliance',
      'get_system',
      'list_policies',
      'search_knowledge_graph',
      'search_marketplace',
      'sparql_passthrough',
      'sparql_query',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
    expect(byName.sparql_passthrough?.annotations?.openWorldHint).toBe(true);
    expect(byName.sparql_query?.annotations?.openWorldHint).toBe(false);
    expect(byName.search_marketplace?.annotations?.openWorldHint).toBe(false);
  });

  it('lists carry honest cache hints on 2026-07-28: static lists public, marketplace data private', async () => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const ask = async (method: string) => {
      const response = await handler.fetch(
        new Request('http://mcp.test/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': method,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: envelope } }),
        }),
      );
      const text = await response.text();
      const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text);
      return (JSON.parse(json) as { result: Record<string, unknown> }).result;
    };
    expect(await ask('tools/list')).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
    expect(await ask('prompts/list')).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
    expect(await ask('resources/list')).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it("search_marketplace finds the demo system through governance-api's search", async () => {
    const answer = await call('search_marketplace', {
      query: 'invoices',
      environment: 'production',
    });
    expect(answer.isError).toBeFalsy();
    // Embeddings are off in the demo configuration: governance-api answers by words.
    expect(answer.structuredContent).toMatchObject({
      mode: 'lexical',
      hits: [
        {
          systemId: DEMO.systemId,
          dataContracts: expect.arrayContaining([
            { id: DEMO.contracts.violated, name: 'Invoices', status: 'violated' },
          ]),
        },
      ],
    });
  });

  it('get_system answers output ports with their data contracts', async () => {
    const answer = await call('get_system', { systemId: DEMO.systemId });
    const view = answer.structuredContent as {
      environment: string;
      descriptorRead: boolean;
      outputPorts: {
        id: string;
        dataContract?: { schema: unknown[] };
        compliance?: { status: string };
      }[];
      otherComponents: { kind?: string }[];
    };
    expect(view.environment).toBe('production');
    expect(view.descriptorRead).toBe(true);
    expect(view.outputPorts.map((p) => p.id).sort()).toEqual(Object.values(DEMO.contracts).sort());
    const invoices = view.outputPorts.find((p) => p.id === DEMO.contracts.violated);
    expect(
      (invoices?.dataContract?.schema as { name: string }[] | undefined)?.map((c) => c.name),
    ).toEqual(['invoice_id', 'amount', 'updated_at']);
    expect(invoices?.compliance?.status).toBe('violated');
    expect(view.otherComponents).toEqual([expect.objectContaining({ kind: 'workload' })]);
  });

  it('get_system needs no governance key: the deployed descriptor is a public marketplace read', async () => {
    const anonymous = createMcpHandler(() =>
      createDcgMcpServer({
        ...deps,
        marketplace: createMarketplaceClient({ baseUrl: backends.governance.url }),
      }),
    );
    const other = await connect(anonymous);
    try {
      const answer = (await other.callTool({
        name: 'get_system',
        arguments: { systemId: DEMO.systemId, environment: 'production' },
      })) as ToolAnswer;
      expect(answer.structuredContent).toMatchObject({
        descriptorRead: true,
        outputPorts: expect.arrayContaining([
          expect.objectContaining({
            id: DEMO.contracts.violated,
            dataContract: expect.objectContaining({ schema: expect.any(Array) }),
          }),
        ]),
      });
      expect(answer.structuredContent).not.toHaveProperty('note');
    } finally {
      await other.close();
      await anonymous.close();
    }
  });

  it('get_component answers a data contract with its compliance', async () => {
    const answer = await call('get_component', { componentId: DEMO.contracts.violated });
    expect(answer.structuredContent).toMatchObject({
      systemId: DEMO.systemId,
      environment: 'production',
      component: {
        id: DEMO.contracts.violated,
        isDataContract: true,
        dataContract: { SLA: expect.any(Object) },
      },
      compliance: { status: 'violated' },
    });
  });

  it('get_contract_compliance lists the failing requirements and the error summary', async () => {
    const answer = await call('get_contract_compliance', { contractId: DEMO.contracts.violated });
    const compliance = answer.structuredContent as {
      status: string;
      counts: { failing: number };
      failingRequirements: { path: string[]; issues: string[] }[];
      errorSummary: string | null;
      explanation: string;
    };
    expect(compliance.status).toBe('violated');
    expect(compliance.counts.failing).toBeGreaterThan(0);
    expect(compliance.failingRequirements.length).toBe(compliance.counts.failing);
    expect(compliance.failingRequirements[0]?.issues.length).toBeGreaterThan(0);
    expect(compliance.failingRequirements[0]?.path.length).toBeGreaterThan(0);
    expect(compliance.explanation).toMatch(/violated/);
    const ok = await call('get_contract_compliance', {
      contractId: DEMO.contracts.compliant,
      environment: 'production',
    });
    expect(ok.structuredContent).toMatchObject({ status: 'compliant', failingRequirements: [] });
    const unprocessable = await call('get_contract_compliance', {
      contractId: DEMO.contracts.unprocessable,
    });
    expect(unprocessable.structuredContent).toMatchObject({ status: 'unprocessable' });
  });

  it('list_policies lists the policies of a resource type, paged with cursors', async () => {
    const answer = await call('list_policies', { resourceType: 'dataproduct' });
    const page = answer.structuredContent as {
      policies: { resourceType: string }[];
      total: number;
    };
    expect(page.total).toBeGreaterThan(0);
    expect(page.policies.every((p) => p.resourceType === 'dataproduct')).toBe(true);
    const none = await call('list_policies', { resourceType: 'no-such-type' });
    expect(none.structuredContent).toEqual({ policies: [], total: 0 });
  });

  it('search_knowledge_graph finds concepts with labels and pages with cursors', async () => {
    const first = await call('search_knowledge_graph', { term: 'data', limit: 2, lang: ['en'] });
    const page = first.structuredContent as {
      results: { iri: string; label?: { value: string } }[];
      totalResults: number;
      nextCursor?: string;
    };
    expect(page.results).toHaveLength(2);
    expect(page.totalResults).toBeGreaterThan(2);
    expect(page.results[0]?.label?.value).toEqual(expect.any(String));
    const second = await call('search_knowledge_graph', {
      term: 'data',
      limit: 2,
      lang: ['en'],
      cursor: page.nextCursor,
    });
    const next = second.structuredContent as { results: { iri: string }[] };
    expect(next.results.map((r) => r.iri)).not.toContain(page.results[0]?.iri);
    const foreign = await call('search_knowledge_graph', {
      term: 'quality',
      cursor: page.nextCursor,
    });
    expect(foreign.isError).toBe(true);
    expect(foreign.content[0]?.text).toMatch(/cursor/);
  });

  it('describe_concepts answers labels, definitions and the hierarchy', async () => {
    const answer = await call('describe_concepts', {
      iris: [DEMO.concept, 'https://nowhere.example/x'],
      lang: ['en'],
    });
    const [concept, unknown] = (answer.structuredContent as { concepts: Record<string, unknown>[] })
      .concepts;
    expect(concept).toMatchObject({
      iri: DEMO.concept,
      found: true,
      label: { value: 'Data product', lang: 'en' },
      narrower: expect.arrayContaining(['https://dcg.example.org/vocab/governance/output-port']),
    });
    expect(unknown).toMatchObject({ found: false });
  });

  it('sparql_query runs on the internal graph; sparql_passthrough on the upstream source', async () => {
    const query =
      'PREFIX skos: <http://www.w3.org/2004/02/skos/core#> SELECT ?c ?l WHERE { ?c skos:prefLabel ?l FILTER(lang(?l) = "en") } LIMIT 3';
    const internal = await call('sparql_query', { query });
    expect(internal.structuredContent).toMatchObject({
      kind: 'select',
      variables: ['c', 'l'],
      truncated: false,
    });
    expect((internal.structuredContent as { rows: unknown[] }).rows).toHaveLength(3);
    const ask = await call('sparql_query', { query: `ASK { <${DEMO.concept}> ?p ?o }` });
    expect(ask.structuredContent).toMatchObject({ kind: 'ask', boolean: true });
    const upstream = await call('sparql_passthrough', { source: 'upstream', query });
    expect(upstream.structuredContent).toMatchObject({ kind: 'select', source: 'upstream' });
    expect((upstream.structuredContent as { rows: unknown[] }).rows).toHaveLength(3);
  });

  it('backend errors reach the assistant as tool errors with the problem title and detail', async () => {
    const syntax = await call('sparql_query', { query: 'SELEKT nothing' });
    expect(syntax.isError).toBe(true);
    expect(syntax.content[0]?.text).toMatch(/knowledge graph \(kg-api\) answered 400/);
    const unknownSource = await call('sparql_passthrough', { source: 'nope', query: 'ASK {}' });
    expect(unknownSource.isError).toBe(true);
    expect(unknownSource.content[0]?.text).toMatch(/404/);
    const notDeployed = await call('get_system', { systemId: 'urn:dmb:dp:x:y:0' });
    expect(notDeployed.isError).toBe(true);
    expect(notDeployed.content[0]?.text).toMatch(/not deployed/);
    const badUrn = await call('get_component', { componentId: 'orders' });
    expect(badUrn.content[0]?.text).toMatch(/not a component URN/);
    const down = createMcpHandler(() =>
      createDcgMcpServer({
        ...deps,
        marketplace: createMarketplaceClient({ baseUrl: 'http://127.0.0.1:9', retries: 0 }),
      }),
    );
    const other = await connect(down);
    try {
      const answer = (await other.callTool({
        name: 'get_contract_compliance',
        arguments: { contractId: DEMO.contracts.violated, environment: 'production' },
      })) as ToolAnswer;
      expect(answer.isError).toBe(true);
      expect(answer.content[0]?.text).toMatch(/cannot be reached/);
    } finally {
      await other.close();
      await down.close();
    }
  });

  it('no answer exceeds the configured size: long lists are cut and paged', async () => {
    const small = createMcpHandler(() =>
      createDcgMcpServer({ ...deps, limits: { ...DEFAULT_LIMITS, maxResultBytes: 600 } }),
    );
    const other = await connect(small);
    try {
      const answer = (await other.callTool({
        name: 'sparql_query',
        arguments: {
          query:
            'PREFIX skos: <http://www.w3.org/2004/02/skos/core#> SELECT ?c ?l WHERE { ?c skos:prefLabel ?l }',
        },
      })) as ToolAnswer;
      const out = answer.structuredContent as {
        rows: unknown[];
        rowCount: number;
        truncated: boolean;
      };
      expect(out.truncated).toBe(true);
      expect(out.rows.length).toBeLessThan(out.rowCount);
      expect(JSON.stringify(out).length).toBeLessThanOrEqual(600);
      const system = (await other.callTool({
        name: 'get_system',
        arguments: { systemId: DEMO.systemId },
      })) as ToolAnswer;
      expect(system.isError).toBe(true);
      expect(system.content[0]?.text).toMatch(/larger than this server's limit of 600 bytes/);
    } finally {
      await other.close();
      await small.close();
    }
  });

  it('lists and reads resources of systems and data contracts, and their templates', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'dcg://data-contracts/{environment}/{contractId}',
      'dcg://systems/{environment}/{systemId}',
    ]);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name)).toEqual(
      expect.arrayContaining([DEMO.systemId, ...Object.values(DEMO.contracts)]),
    );
    const system = resources.find((r) => r.name === DEMO.systemId)!;
    const read = await client.readResource({ uri: system.uri });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    // The system resource is its descriptor as deployed, beside the view of it.
    expect(body).toMatchObject({
      systemId: DEMO.systemId,
      descriptorRead: true,
      planId: expect.any(String),
      descriptor: { id: DEMO.systemId, components: expect.any(Array) },
    });
    expect(JSON.stringify(body)).not.toContain('privateInfo');
    const contract = resources.find((r) => r.name === DEMO.contracts.violated)!;
    const contractBody = JSON.parse(
      ((await client.readResource({ uri: contract.uri })).contents[0] as { text: string }).text,
    );
    expect(contractBody).toMatchObject({
      contractId: DEMO.contracts.violated,
      dataContract: { schema: expect.any(Array) },
      compliance: { status: 'violated' },
    });
    // An unknown system is "resource not found" (the SDK answers it as -32602), not an internal error.
    const missing = await client
      .readResource({ uri: 'dcg://systems/production/urn%3Admb%3Adp%3Ax%3Ay%3A0' })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ResourceNotFoundError);
    expect(missing).toMatchObject({ code: -32602 });
    expect(String(missing)).toMatch(/not deployed in production/);
  });

  it('resources/list pages with a cursor at the configured page size; the SDK client follows nextCursor', async () => {
    const { resources: everything } = await client.listResources();
    expect(everything.length).toBe(4);
    const paged = createMcpHandler(() =>
      createDcgMcpServer({ ...deps, limits: { ...DEFAULT_LIMITS, resourcesPageSize: 3 } }),
    );
    // Counts the resources/list requests the client sends.
    const listRequests: unknown[] = [];
    const other = await connect({
      fetch: (request) => {
        if (request.headers.get('mcp-method') === 'resources/list') listRequests.push(request);
        return paged.fetch(request);
      },
    } as McpHttpHandler);
    try {
      // Without a cursor the SDK client walks every page: two requests for four resources.
      const walked = await other.listResources();
      expect(listRequests).toHaveLength(2);
      expect(walked.resources.map((r) => r.uri)).toEqual(everything.map((r) => r.uri));
      // Page by page, following nextCursor by hand from the first page.
      const first = (await other.request({ method: 'resources/list', params: {} })) as {
        resources: { uri: string }[];
        nextCursor?: string;
      };
      expect(first.resources).toHaveLength(3);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await other.listResources({ cursor: first.nextCursor! });
      expect(second.resources).toHaveLength(1);
      expect(second.nextCursor).toBeUndefined();
      const uris = [...first.resources, ...second.resources].map((r) => r.uri);
      // Every resource once, in URI order.
      expect(uris).toEqual(everything.map((r) => r.uri));
      expect([...uris].sort()).toEqual(uris);
      // A cursor this server did not issue is invalid params, not an internal error.
      const forged = await other
        .listResources({ cursor: 'not-a-cursor' })
        .catch((error: unknown) => error);
      expect(forged).toMatchObject({ code: -32602 });
      expect(String(forged)).toMatch(/cursor/);
    } finally {
      await other.close();
      await paged.close();
    }
  });

  it('offers prompts a user would pick, filled with the live compliance', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['explain_contract_violation', 'find_data']);
    const prompt = await client.getPrompt({
      name: 'explain_contract_violation',
      arguments: { contractId: DEMO.contracts.violated },
    });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toMatch(/is violated in production/);
    expect(text).toMatch(/Failing requirements/);
    expect(prompt.messages[1]?.content).toMatchObject({ type: 'resource' });
  });
});
