import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backends, GOVERNANCE_KEY, startBackends } from './__fixtures__/backends.testkit';
import { registerConformanceFixtures } from './__fixtures__/conformance-fixtures.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

const run = promisify(execFile);
const NODE = '22.23.3';

/**
 * The suite needs Node 22, which the `node` package of the npm registry brings. Both are installed
 * with npm into a cache folder of their own, not into the workspace: a `node` package there would
 * put Node 22 on the PATH of this app's scripts, and the native modules of the workspace are built
 * for the Node that runs the tests.
 */
function suiteOf(version: string) {
  const cache = join(
    import.meta.dirname,
    '..',
    'node_modules',
    '.cache',
    `conformance-${version}-node-${NODE}`,
  );
  const node = join(cache, 'node_modules', 'node', 'bin', 'node');
  const cli = join(
    cache,
    'node_modules',
    '@modelcontextprotocol',
    'conformance',
    'dist',
    'index.js',
  );
  return {
    async install() {
      if (existsSync(node) && existsSync(cli)) return;
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
          `node@${NODE}`,
          `@modelcontextprotocol/conformance@${version}`,
        ],
        { timeout: 300_000 },
      );
    },
    /** Runs the suite's CLI; answers its output, also when it exits non-zero (a failing check). */
    async run(args: string[], timeout = 120_000): Promise<string> {
      const result = await run(node, [cli, ...args], {
        timeout,
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { stdout?: string; stderr?: string }) => error);
      return `${result.stdout ?? ''}${result.stderr ?? ''}`;
    },
  };
}

/**
 * The test instance: the real app (oauth.enabled false: the suite has no way to pass a token; the
 * OAuth side is covered by the SDK-client tests) with the suite's fixture tools, resources and
 * prompts registered through `extendServer`, the server factory's hook.
 */
async function startFixtureServer(): Promise<{ server: RunningMcpServer; close(): Promise<void> }> {
  const backends: Backends = await startBackends();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-server-conformance-'));
  const server = await startMcpServer({
    dataDir: dir,
    config: {
      oauth: { enabled: false },
      governance: { baseUrl: backends.governance.url, apiKey: { key: GOVERNANCE_KEY } },
      knowledgeGraph: { baseUrl: backends.kg.url },
    },
    logger: createLogger('test', { level: 'silent' }),
    extendServer: registerConformanceFixtures,
  });
  return {
    server,
    close: async () => {
      await server.close();
      await backends.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The suite checks localhost Host/Origin handling, so it talks to localhost. */
const localUrl = (server: RunningMcpServer) => server.mcpUrl.replace('127.0.0.1', 'localhost');

/**
 * @modelcontextprotocol/conformance 0.1.16 (the latest release), every server scenario with its
 * one expectation: passes; passes with only the warnings named (a SHOULD about a feature not
 * offered); or skipped, naming the feature the server does not offer.
 */
const SCENARIOS_0_1: Record<
  string,
  'pass' | { warns: string; because: string } | { skip: string }
> = {
  'server-initialize': 'pass',
  ping: 'pass',
  'tools-list': 'pass',
  'resources-list': 'pass',
  'prompts-list': 'pass',
  'dns-rebinding-protection': 'pass',
  'tools-call-simple-text': 'pass',
  'tools-call-image': 'pass',
  'tools-call-audio': 'pass',
  'tools-call-embedded-resource': 'pass',
  'tools-call-mixed-content': 'pass',
  'tools-call-error': 'pass',
  'tools-call-with-progress': 'pass',
  'json-schema-2020-12': 'pass',
  'resources-read-text': 'pass',
  'resources-read-binary': 'pass',
  'resources-templates-read': 'pass',
  'prompts-get-simple': 'pass',
  'prompts-get-with-args': 'pass',
  'prompts-get-embedded-resource': 'pass',
  'prompts-get-with-image': 'pass',
  'server-sse-polling': {
    warns: 'Server provides session ID for SSE polling tests',
    because: 'sessions: stateless serving has no session, so no stream to resume',
  },
  'server-sse-multiple-streams': {
    warns: 'Server provides session ID for multiple streams test',
    because: 'sessions: stateless serving has no session',
  },
  'logging-set-level': { skip: 'logging (deprecated in 2026-07-28, SEP-2577)' },
  'tools-call-with-logging': { skip: 'logging (deprecated in 2026-07-28, SEP-2577)' },
  'completion-complete': { skip: 'completion' },
  'tools-call-sampling': { skip: 'sampling: the server never asks the client to sample' },
  'tools-call-elicitation': { skip: 'elicitation: the server never elicits' },
  'elicitation-sep1034-defaults': { skip: 'elicitation: the server never elicits' },
  'elicitation-sep1330-enums': { skip: 'elicitation: the server never elicits' },
  'resources-subscribe': { skip: 'resource subscriptions' },
  'resources-unsubscribe': { skip: 'resource subscriptions' },
};

describe('@modelcontextprotocol/conformance 0.1.16 (server scenarios, Node 22)', {
  timeout: 120_000,
}, () => {
  const suite = suiteOf('0.1.16');
  let fixture: Awaited<ReturnType<typeof startFixtureServer>>;

  beforeAll(async () => {
    await suite.install();
    fixture = await startFixtureServer();
  }, 400_000);
  afterAll(() => fixture?.close());

  it('lists every scenario of the suite here, with an expected outcome', async () => {
    const serverPart = (await suite.run(['list'])).split('Client scenarios')[0] ?? '';
    const listed = [...serverPart.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(Object.keys(SCENARIOS_0_1).sort());
  });

  for (const [scenario, expected] of Object.entries(SCENARIOS_0_1)) {
    if (typeof expected === 'object' && 'skip' in expected) {
      it.skip(`${scenario}: not offered: ${expected.skip}`, () => undefined);
      continue;
    }
    const title =
      expected === 'pass'
        ? `${scenario} passes`
        : `${scenario} passes, warning of ${expected.because}`;
    it(title, async () => {
      const output = await suite.run([
        'server',
        '--url',
        localUrl(fixture.server),
        '--scenario',
        scenario,
      ]);
      if (expected === 'pass') {
        expect(output, output).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
      } else {
        expect(output, output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
        expect(output).toContain(expected.warns);
      }
    });
  }
});

/**
 * What a scenario of the 2026-07-28 requirement set does here: passes, or fails only in checks
 * about a feature the server does not offer (named), each failing check's `id: message` matching.
 */
type Expected2026 = 'pass' | { unoffered: string; failing: RegExp };

const INPUT_REQUIRED = {
  unoffered: 'elicitation, sampling and roots (input_required results): the server never asks',
  failing: /test_input_required_result|InputRequiredResult|requestState/,
};
const TASKS = {
  unoffered: 'tasks (an extension, not scored)',
  failing: /not found|Not testable|fixture|-32021|-32601|extensions MUST/,
};

/**
 * @modelcontextprotocol/conformance 0.2.0-alpha.12, the current release that knows the 2026-07-28
 * revision, run once with `--requirements 2026-07-28` (it decides which scenarios run): each
 * scenario that ran, with its one expectation.
 */
const SCENARIOS_2026: Record<string, Expected2026> = {
  'server-stateless': {
    unoffered:
      'client capabilities, elicitation and logging (its probe tools test_missing_capability, test_streaming_elicitation, test_logging_tool)',
    failing: /test_missing_capability|test_streaming_elicitation|test_logging_tool/,
  },
  'completion-complete': { unoffered: 'completion', failing: /Method not found/ },
  'tools-list': 'pass',
  'tools-call-simple-text': 'pass',
  'tools-call-image': 'pass',
  'tools-call-audio': 'pass',
  'tools-call-embedded-resource': 'pass',
  'tools-call-mixed-content': 'pass',
  'tools-call-error': 'pass',
  'tools-call-with-progress': 'pass',
  'server-sse-multiple-streams': 'pass',
  'resources-list': 'pass',
  'resources-read-text': 'pass',
  'resources-read-binary': 'pass',
  'resources-templates-read': 'pass',
  'sep-2164-resource-not-found': 'pass',
  'prompts-list': 'pass',
  'prompts-get-simple': 'pass',
  'prompts-get-with-args': 'pass',
  'prompts-get-embedded-resource': 'pass',
  'prompts-get-with-image': 'pass',
  'dns-rebinding-protection': 'pass',
  caching: 'pass',
  'input-required-result-basic-elicitation': INPUT_REQUIRED,
  'input-required-result-basic-sampling': INPUT_REQUIRED,
  'input-required-result-basic-list-roots': INPUT_REQUIRED,
  'input-required-result-request-state': INPUT_REQUIRED,
  'input-required-result-multiple-input-requests': INPUT_REQUIRED,
  'input-required-result-multi-round': INPUT_REQUIRED,
  'input-required-result-missing-input-response': 'pass',
  'input-required-result-non-tool-request': INPUT_REQUIRED,
  'input-required-result-result-type': INPUT_REQUIRED,
  'input-required-result-unsupported-methods': 'pass',
  'input-required-result-tampered-state': INPUT_REQUIRED,
  'input-required-result-capability-check': INPUT_REQUIRED,
  'input-required-result-ignore-extra-params': 'pass',
  'input-required-result-validate-input': 'pass',
  'tasks-lifecycle': TASKS,
  'tasks-capability-negotiation': TASKS,
  'tasks-wire-fields': TASKS,
  'tasks-request-state-removal': TASKS,
  'tasks-mrtr-input': TASKS,
  'tasks-request-headers': TASKS,
  'tasks-dispatch-and-envelope': TASKS,
  'tasks-status-notifications': 'pass',
  'tasks-required-task-error': TASKS,
  'tasks-mrtr-composition': TASKS,
  'json-schema-2020-12': 'pass',
  'http-header-validation': 'pass',
  'http-custom-header-server-validation': {
    unoffered: 'x-mcp-header tool parameters (SEP-2243, pending)',
    failing: /x-mcp-header/,
  },
};

type Check = { id: string; status: string; errorMessage?: string };

describe('@modelcontextprotocol/conformance 0.2.0-alpha.12 --requirements 2026-07-28', {
  timeout: 120_000,
}, () => {
  const suite = suiteOf('0.2.0-alpha.12');
  const results = new Map<string, Check[]>();
  let summary = '';

  beforeAll(async () => {
    await suite.install();
    const fixture = await startFixtureServer();
    const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-results-'));
    try {
      summary = await suite.run(
        ['server', '--url', localUrl(fixture.server), '--requirements', '2026-07-28', '-o', out],
        300_000,
      );
      for (const folder of readdirSync(out)) {
        const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(folder)?.[1];
        if (!scenario) continue;
        const checks = JSON.parse(readFileSync(join(out, folder, 'checks.json'), 'utf8'));
        results.set(scenario, checks as Check[]);
      }
    } finally {
      await fixture.close();
      rmSync(out, { recursive: true, force: true });
    }
  }, 600_000);

  it('ran every scenario listed here, and only those', () => {
    expect([...results.keys()].sort(), summary).toEqual(Object.keys(SCENARIOS_2026).sort());
  });

  for (const [scenario, expected] of Object.entries(SCENARIOS_2026)) {
    const title =
      expected === 'pass'
        ? `${scenario} passes`
        : `${scenario}: fails only for ${expected.unoffered}`;
    it(title, () => {
      const checks = results.get(scenario) ?? [];
      const failed = checks
        .filter((check) => check.status === 'FAILURE')
        .map((check) => `${check.id}: ${check.errorMessage ?? ''}`);
      if (expected === 'pass') {
        expect(failed).toEqual([]);
        return;
      }
      expect(failed.length, JSON.stringify(checks, null, 2)).toBeGreaterThan(0);
      for (const failure of failed) expect(failure).toMatch(expected.failing);
    });
  }
});
