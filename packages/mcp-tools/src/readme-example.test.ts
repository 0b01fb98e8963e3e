import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Backends,
  DEMO,
  GOVERNANCE_KEY,
  startBackends,
} from './__fixtures__/backends.testkit';

// Runs the README's example as written (its first ```ts block), as an assistant would: a child
// process spoken to over stdio, against real governance-api and kg-api with their demo data.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const exampleFile = join(packageDir, `readme-example-${process.pid}.tmp.ts`);
const tsx = join(packageDir, '..', '..', 'node_modules', '.bin', 'tsx');

let backends: Backends | undefined;
let client: Client | undefined;

beforeAll(async () => {
  backends = await startBackends();
}, 60_000);

afterAll(async () => {
  await client?.close();
  rmSync(exampleFile, { force: true });
  await backends?.close();
});

describe('the README example', () => {
  it('serves the dcg tools over stdio against governance-api and kg-api', async () => {
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(code).toContain('serveStdio(');
    writeFileSync(exampleFile, code);
    const running = backends as Backends;
    client = new Client({ name: 'readme-example-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: tsx,
        args: ['--conditions=@dcg/source', exampleFile],
        cwd: packageDir,
        env: {
          ...getDefaultEnvironment(),
          GOVERNANCE_URL: running.governance.url,
          GOVERNANCE_API_KEY: GOVERNANCE_KEY,
          KG_URL: running.kg.url,
        },
        stderr: 'pipe',
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('get_system');
    const answer = await client.callTool({
      name: 'get_system',
      arguments: { systemId: DEMO.systemId, environment: DEMO.environment },
    });
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({
      environment: DEMO.environment,
      descriptorRead: true,
    });
    const concepts = await client.callTool({
      name: 'search_knowledge_graph',
      arguments: { term: 'data', lang: ['en'] },
    });
    expect(concepts.isError).toBeFalsy();
    expect((concepts.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(
      0,
    );
  }, 60_000);
});
