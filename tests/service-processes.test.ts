import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize } from '../apps/mcp-server/src/__fixtures__/oauth-client.testkit';
// @ts-expect-error: a plain .mjs script, without declarations
import { buildIfStale } from '../scripts/build-if-stale.mjs';

// The apps as operators run them: through `pnpm --filter <app> start` and `pnpm start`, stopped by
// a signal to the start command (as systemd, a container runtime or a terminal sends it).

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'dcg-processes-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {}
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

const ADMIN_KEY = 'process-test-admin-key-0123456789';

// The start commands build a stale dist themselves; build here, outside any test's time limit.
beforeAll(() => {
  buildIfStale(
    ['governance-api', 'kg-api', 'mcp-server', 'postgres-guardian'].map((app) =>
      join(root, 'apps', app),
    ),
  );
}, 600_000);

interface Started {
  child: ChildProcess;
  urls: string[];
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs a command in its own process group; resolves once `count` apps printed their listening line. */
function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  count = 1,
): Promise<Started> {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let out = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening within 60 s:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // pnpm may prefix the lines of a filtered run: the JSON starts at the first brace.
      const urls = out
        .split('\n')
        .filter((line) => line.includes('"msg":"listening"'))
        .map((line) => JSON.parse(line.slice(line.indexOf('{'))).url as string);
      if (urls.length >= count) {
        clearTimeout(timer);
        resolve({ child, urls, output: () => out, exited });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited with ${code}:\n${out}`), { code, out }));
    });
  });
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits until no process of the group is left (10 s at most). */
async function groupGone(pgid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** The command lines of the processes of a process group. */
function commandsOfGroup(pgid: number): string[] {
  return execFileSync('ps', ['-e', '-o', 'pgid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith(`${pgid} `))
    .map((line) => line.slice(line.indexOf(' ') + 1));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Sends a request's headers and half its body, runs `meanwhile` (the signal), then the rest of the
 * body: the request is in flight across the signal. Resolves with the raw response.
 */
function slowRequest(
  url: string,
  request: { method: string; path: string; headers: Record<string, string>; body: string },
  meanwhile: () => void,
): Promise<string> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  const head = [
    `${request.method} ${request.path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Content-Length: ${Buffer.byteLength(request.body)}`,
    ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  const half = Math.floor(request.body.length / 2);
  let received = '';
  socket.on('data', (d) => {
    received += d;
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', () => resolve(received));
    socket.once('connect', () => {
      socket.write(head + request.body.slice(0, half));
      setTimeout(() => {
        meanwhile();
        setTimeout(() => socket.write(request.body.slice(half)), 500);
      }, 300);
    });
  });
}

function configFile(name: string, content: unknown): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const apps = [
  {
    name: 'governance-api',
    config: { auth: { apiKeys: [{ name: 'ops', key: ADMIN_KEY, role: 'platform-admin' }] } },
    request: {
      method: 'POST',
      path: '/v1/computational-governance/policies',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN_KEY}` },
      body: JSON.stringify({
        id: 'in-flight',
        name: 'Sent across a SIGTERM',
        resourceType: 'dataproduct',
        trigger: 'passive',
      }),
    },
    acknowledged: /^HTTP\/1.1 201 /,
  },
  {
    name: 'kg-api',
    config: {
      sources: [
        {
          id: 'vocab',
          name: 'Vocabulary',
          modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
        },
      ],
      auth: { apiKeys: [{ name: 'ops', key: ADMIN_KEY, role: 'writer' }] },
    },
    request: {
      method: 'PUT',
      path: '/v1/sources/vocab/graph',
      headers: { 'Content-Type': 'application/n-triples', Authorization: `Bearer ${ADMIN_KEY}` },
      body: Array.from(
        { length: 200 },
        (_, i) => `<https://ex.org/c${i}> <http://www.w3.org/2000/01/rdf-schema#label> "c ${i}" .`,
      ).join('\n'),
    },
    acknowledged: /^HTTP\/1.1 200 /,
  },
] as const;

describe.each(apps)('$name under pnpm --filter … start', (app) => {
  it('finishes a request in flight when SIGTERM reaches the start command, then stops and frees its port', async () => {
    const started = await run('pnpm', ['--filter', `@dcg/${app.name}`, 'start'], {
      PORT: '0',
      DCG_DATA_DIR: join(dir, `${app.name}-filter`),
      DCG_CONFIG: configFile(app.name, app.config),
    });
    const url = started.urls[0] ?? '';
    const port = Number(new URL(url).port);
    // Production runs the compiled app: `node dist/main.js`, no tsx loader.
    const commands = commandsOfGroup(started.child.pid ?? 0).filter((c) => /\bnode\b/.test(c));
    expect(commands.some((c) => c.endsWith('dist/main.js'))).toBe(true);
    expect(commands.filter((c) => /tsx|src\/main\.ts/.test(c))).toEqual([]);
    const response = await slowRequest(url, app.request, () => started.child.kill('SIGTERM'));
    expect(response).toMatch(app.acknowledged);
    // The answer said the connection closes: the server is stopping.
    expect(response).toMatch(/connection: close/i);
    expect(await started.exited).not.toBeNull();
    expect(await listening(port)).toBe(false);
    // No node process of the app is left behind in the start command's process group.
    expect(await groupGone(started.child.pid ?? 0)).toBe(true);
  });

  it('refuses an unknown LOG_LEVEL at start-up with one clear line (compiled app)', async () => {
    const failure = await run(process.execPath, [`apps/${app.name}/dist/main.js`], {
      PORT: '0',
      LOG_LEVEL: 'verbose',
      DCG_DATA_DIR: join(dir, `${app.name}-log-level`),
    }).then(
      (s) => {
        s.child.kill('SIGKILL');
        return { code: -1, out: s.output() };
      },
      (error: { code: number; out: string }) => error,
    );
    expect(failure.code).toBe(1);
    expect(failure.out).toContain(
      `${app.name}: LOG_LEVEL must be one of debug, info, warn, error, silent; not "verbose"`,
    );
    expect(failure.out).not.toMatch(/\n\s+at /);
  });

  it('refuses to start in production without a configured key, whatever LOG_LEVEL says', async () => {
    const failure = await run(
      process.execPath,
      ['--conditions=@dcg/source', '--import', 'tsx', `apps/${app.name}/src/main.ts`],
      {
        PORT: '0',
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DCG_DATA_DIR: join(dir, `${app.name}-production`),
      },
    ).then(
      (s) => {
        s.child.kill('SIGKILL');
        return { code: -1, out: s.output() };
      },
      (error: { code: number; out: string }) => error,
    );
    expect(failure.code).toBe(1);
    expect(failure.out).toMatch(/auth\.apiKeys: no API key is configured/);
    expect(failure.out).toMatch(/NODE_ENV=production/);
    expect(failure.out).toMatch(/keyFromEnv: DCG_OPS_KEY/);
    expect(failure.out).not.toMatch(/dcg-dev-/);
  });
});

/** One 2026-07-28 `tools/call` over HTTP with a bearer token (no SDK: this project has no deps). */
async function callTool(
  mcpUrl: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError?: boolean; content: { text?: string }[]; structuredContent?: object }> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'start-test', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text);
  const answer = JSON.parse(json) as { result?: never; error?: unknown };
  if (!answer.result) throw new Error(`${name}: ${response.status} ${text}`);
  return answer.result;
}

// The demo data every app seeds under `pnpm start`.
const DEMO = {
  systemId: 'urn:dmb:dp:finance:orders:0',
  violated: 'urn:dmb:cmp:finance:orders:0:invoices-port',
  concept: 'https://dcg.example.org/vocab/governance/data-product',
  // kg-api's demo passthrough source: SPARQL passed through to its own internal endpoint.
  passthroughSource: 'demo-loopback',
};

describe('pnpm start', () => {
  it('answers /health, /ready and /metrics (no key, from this host) on every app and serves every MCP tool on the demo (mcp-server holds the governance-api key it was handed; kg-api passes SPARQL through to itself), then stops every app on SIGTERM', async () => {
    // Every app on a free port (none on the fixed defaults), and all four listening before SIGTERM.
    const ports = {
      GOVERNANCE_API_PORT: await freePort(),
      KG_API_PORT: await freePort(),
      MCP_SERVER_PORT: await freePort(),
      POSTGRES_GUARDIAN_PORT: await freePort(),
    };
    const started = await run(
      'pnpm',
      ['start'],
      {
        ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
        DCG_DATA_DIR: join(dir, 'platform'),
      },
      Object.keys(ports).length,
    );
    for (const port of Object.values(ports)) expect(await listening(port)).toBe(true);

    // Every app answers its probes, and on the demo /metrics answers a scrape from this host
    // without a key (none is configured for mcp-server and the guardian), with dcg_build_info.
    for (const [name, port] of Object.entries(ports)) {
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/health`)).status, `${name} /health`).toBe(200);
      let ready = 0;
      for (let i = 0; i < 60 && ready !== 200; i++) {
        ready = (await fetch(`${base}/ready`)).status;
        if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(ready, `${name} /ready`).toBe(200);
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status, `${name} /metrics`).toBe(200);
      expect(await metrics.text(), `${name} /metrics`).toMatch(/^dcg_build_info\{/m);
    }

    // mcp-server got the governance-api key `pnpm start` made: a user logs in (the demo user it
    // printed) and every tool answers, list_policies (which needs the key) included.
    const demoUser = started
      .output()
      .split('\n')
      .find((line) => line.includes('"msg":"demo user'));
    const { username, demoLogin } = JSON.parse(demoUser!.slice(demoUser!.indexOf('{')));
    const mcpBase = `http://127.0.0.1:${ports.MCP_SERVER_PORT}`;
    const { accessToken } = await authorize(`${mcpBase}/mcp`, mcpBase, username, demoLogin);
    const args: Record<string, Record<string, unknown>> = {
      search_marketplace: { query: 'invoices' },
      get_system: { systemId: DEMO.systemId },
      get_component: { componentId: DEMO.violated },
      get_contract_compliance: { contractId: DEMO.violated },
      list_policies: { resourceType: 'dataproduct' },
      search_knowledge_graph: { term: 'data' },
      describe_concepts: { iris: [DEMO.concept] },
      sparql_query: { query: `ASK { <${DEMO.concept}> ?p ?o }` },
      sparql_passthrough: {
        source: DEMO.passthroughSource,
        query: `SELECT ?label WHERE { <${DEMO.concept}> <http://www.w3.org/2004/02/skos/core#prefLabel> ?label }`,
      },
    };
    const answers = new Map<string, object | undefined>();
    for (const [name, input] of Object.entries(args)) {
      const answer = await callTool(`${mcpBase}/mcp`, accessToken, name, input);
      expect(answer.isError, `${name}: ${JSON.stringify(answer.content)}`).toBeFalsy();
      expect(answer.structuredContent).toBeDefined();
      answers.set(name, answer.structuredContent);
    }
    const policies = answers.get('list_policies') as { total: number };
    expect(policies.total).toBeGreaterThan(0);
    expect(answers.get('get_system')).toMatchObject({ descriptorRead: true });
    // Real rows through passthrough: the concept's four labels (en, it, fr, de).
    const passedThrough = answers.get('sparql_passthrough') as {
      kind: string;
      rowCount: number;
      rows: unknown[];
      source: string;
    };
    expect(passedThrough).toMatchObject({
      kind: 'select',
      rowCount: 4,
      source: DEMO.passthroughSource,
    });
    expect(JSON.stringify(passedThrough.rows)).toContain('Datenprodukt');

    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    for (const port of Object.values(ports)) expect(await listening(port)).toBe(false);
    expect(await groupGone(started.child.pid ?? 0)).toBe(true);
  });
});
