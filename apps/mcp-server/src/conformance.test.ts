import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backends, GOVERNANCE_KEY, startBackends } from './__fixtures__/backends.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

const run = promisify(execFile);
// The suite needs Node 22, which the `node` package of the npm registry brings. Both are installed
// with npm into a cache folder of their own, not into the workspace: a `node` package there would
// put Node 22 on the PATH of this app's scripts, and the native modules of the workspace are built
// for the Node that runs the tests.
const VERSIONS = { node: '22.23.3', conformance: '0.1.16' };
const cache = join(
  import.meta.dirname,
  '..',
  'node_modules',
  '.cache',
  `conformance-${VERSIONS.conformance}-node-${VERSIONS.node}`,
);
const node22 = join(cache, 'node_modules', 'node', 'bin', 'node');
const suite = join(
  cache,
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);

async function installSuite(): Promise<void> {
  if (existsSync(node22) && existsSync(suite)) return;
  mkdirSync(cache, { recursive: true });
  await run(
    'npm',
    [
      'install',
      '--prefix',
      cache,
      '--no-audit',
      '--no-fund',
      '--no-save',
      `node@${VERSIONS.node}`,
      `@modelcontextprotocol/conformance@${VERSIONS.conformance}`,
    ],
    { timeout: 300_000 },
  );
}

/**
 * Every server scenario of @modelcontextprotocol/conformance 0.1.16, with what we expect. The
 * suite has no way to pass a token, so it runs against an instance with `oauth.enabled: false`
 * (the OAuth side is covered by the SDK-client tests).
 */
const scenarios: Record<string, 'pass' | { skip: string }> = {
  'server-initialize': 'pass',
  ping: 'pass',
  'tools-list': 'pass',
  'resources-list': 'pass',
  'prompts-list': 'pass',
  'dns-rebinding-protection': 'pass',
  'logging-set-level': {
    skip: 'no logging capability: logging is deprecated in 2026-07-28 (SEP-2577)',
  },
  'completion-complete': { skip: 'no completions are offered' },
  'tools-call-simple-text': {
    skip: "calls the suite's fixture tool test_simple_text, which a real server does not have",
  },
  'tools-call-image': {
    skip: 'fixture tool (image content); our tools answer text and structured content',
  },
  'tools-call-audio': { skip: 'fixture tool (audio content)' },
  'tools-call-embedded-resource': { skip: 'fixture tool' },
  'tools-call-mixed-content': { skip: 'fixture tool' },
  'tools-call-with-logging': { skip: 'fixture tool; no logging capability' },
  'tools-call-error': {
    skip: 'fixture tool; tool errors are tested with our own tools in @dcg/mcp-tools',
  },
  'tools-call-with-progress': { skip: 'fixture tool; our tools send no progress' },
  'tools-call-sampling': { skip: 'fixture tool; the server never asks the client to sample' },
  'tools-call-elicitation': { skip: 'fixture tool; the server never elicits' },
  'json-schema-2020-12': { skip: 'fixture tool' },
  'elicitation-sep1034-defaults': { skip: 'the server never elicits' },
  'elicitation-sep1330-enums': { skip: 'the server never elicits' },
  'server-sse-polling': { skip: 'stateless serving: no standalone SSE stream (GET answers 405)' },
  'server-sse-multiple-streams': { skip: 'stateless serving: no standalone SSE stream' },
  'resources-read-text': { skip: 'reads the fixture resource test://static-text' },
  'resources-read-binary': { skip: 'reads a fixture resource' },
  'resources-templates-read': { skip: 'reads a fixture template' },
  'resources-subscribe': { skip: 'resource subscriptions are not offered' },
  'resources-unsubscribe': { skip: 'resource subscriptions are not offered' },
  'prompts-get-simple': {
    skip: 'gets the fixture prompt test_simple_prompt; our prompts are tested in @dcg/mcp-tools',
  },
  'prompts-get-with-args': { skip: 'fixture prompt' },
  'prompts-get-embedded-resource': { skip: 'fixture prompt' },
  'prompts-get-with-image': { skip: 'fixture prompt' },
};

describe('@modelcontextprotocol/conformance (server scenarios, Node 22)', {
  timeout: 120_000,
}, () => {
  let backends: Backends;
  let server: RunningMcpServer;
  let dir: string;

  beforeAll(async () => {
    await installSuite();
    backends = await startBackends();
    dir = mkdtempSync(join(tmpdir(), 'mcp-server-conformance-'));
    server = await startMcpServer({
      dataDir: dir,
      config: {
        oauth: { enabled: false },
        governance: { baseUrl: backends.governance.url, apiKey: { key: GOVERNANCE_KEY } },
        knowledgeGraph: { baseUrl: backends.kg.url },
      },
      logger: createLogger('test', { level: 'silent' }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await backends?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists every scenario of the suite here, with an expected outcome', async () => {
    const { stdout } = await run(node22, [suite, 'list'], { timeout: 60_000 });
    const serverPart = stdout.split('Client scenarios')[0] ?? '';
    const listed = [...serverPart.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(Object.keys(scenarios).sort());
  });

  for (const [scenario, expected] of Object.entries(scenarios)) {
    if (expected !== 'pass') {
      it.skip(`${scenario}: ${expected.skip}`, () => undefined);
      continue;
    }
    it(`${scenario} passes`, async () => {
      // The suite checks localhost Host/Origin handling, so it talks to localhost.
      const url = server.mcpUrl.replace('127.0.0.1', 'localhost');
      const result = await run(node22, [suite, 'server', '--url', url, '--scenario', scenario], {
        timeout: 90_000,
      }).catch((error: { stdout?: string; stderr?: string }) => error);
      const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
      expect(output, output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    });
  }
});
