// Probes and throughput under load (issue 21): governance-api (with INSTANCES generated marketplace
// instances plus the demo data), kg-api and mcp-server each in its own process, as operators run
// them; for each app's main read path, LOAD_CLIENTS (50) clients in another process
// (bench/load-clients.ts) send requests back to back for LOAD_SECONDS (20), while this process,
// otherwise idle, probes the app under load: GET /health and GET /ready alternately, one every
// PROBE_INTERVAL_MS (20). Printed per path: served/s, latency p50/p99, failures by kind, each
// server's CPU time per served request (from /proc), and the probes' p50/p99.
// Goals: /health and /ready p99 < 100 ms under load; mcp-server tools/call search_marketplace
// calls/s >= half of governance-api's searches/s.
// Rate limits are off and every client comes from one address (loopback), so the per-address
// connection limit is off too (the limiter and that limit are measured by other benches).
// Run: pnpm --filter @dcg/mcp-server bench:load
//   PATHS=governance,kg-search,kg-sparql,mcp  INSTANCES=10000  LOAD_SECONDS=20  LOAD_CLIENTS=50
//   ADMISSION='{"maxInFlight":8}' (the `admission` section of all three apps, JSON)
//   PROFILE_DIR=/tmp/prof (the servers write CPU profiles there when they stop: <pid>.cpuprofile)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SpawnedApp, spawnApp } from '@dcg/testing-process';
import { seedMarketplaceAtScale } from '../../governance-api/src/__fixtures__/marketplace-at-scale.testkit';
import { DEMO, GOVERNANCE_KEY } from '../src/__fixtures__/backends.testkit';
import { authorize } from '../src/__fixtures__/oauth-client.testkit';
import { captureToolsCall } from './capture-tools-call';

const instances = Number(process.env.INSTANCES ?? 10_000);
const clients = Number(process.env.LOAD_CLIENTS ?? 50);
const seconds = Number(process.env.LOAD_SECONDS ?? 20);
const probeIntervalMs = Number(process.env.PROBE_INTERVAL_MS ?? 20);
const paths = (process.env.PATHS ?? 'governance,kg-search,kg-sparql,mcp').split(',');
const admission = JSON.parse(process.env.ADMISSION ?? '{}') as Record<string, unknown>;
// The apps' own processes write CPU profiles when they stop (NODE_OPTIONS reaches them, not this one).
const profileEnv: Record<string, string> = process.env.PROFILE_DIR
  ? {
      NODE_OPTIONS: `--import ${fileURLToPath(new URL('./write-cpu-profile.mjs', import.meta.url))}`,
      CPU_PROFILE_DIR: process.env.PROFILE_DIR,
    }
  : {};
// Every client of the bench is on loopback: no per-address connection limit, no rate limit.
const openToLoad = {
  server: { maxConnectionsPerClient: 0 },
  rateLimit: { enabled: false },
  admission,
};

const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${availableParallelism()} cores`;
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
const ms = (n: number | undefined) => (n === undefined ? '-' : `${n.toFixed(1)} ms`);
/** User + system CPU time of a process so far, in ms (from /proc; clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

console.log(`start: ${load()}`);
const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-load-'));
const running: SpawnedApp[] = [];
let stopIdle = () => {};
try {
  const seeding = performance.now();
  const governanceData = join(dir, 'governance');
  const { queries } = await seedMarketplaceAtScale(governanceData, {
    count: instances,
    embed: Number(process.env.EMBED ?? 50),
  });
  const searchQuery = queries[0]!;
  const governance = await spawnApp('governance-api', {
    demo: true,
    config: {
      auth: {
        apiKeys: [{ name: 'mcp', key: GOVERNANCE_KEY, role: 'reader' }],
        developmentKey: false,
      },
      ...openToLoad,
    },
    env: { DCG_DATA_DIR: governanceData, ...profileEnv },
  });
  running.push(governance);
  const kg = await spawnApp('kg-api', {
    demo: true,
    config: { auth: { developmentKey: false }, ...openToLoad },
    env: profileEnv,
  });
  running.push(kg);
  const mcp = await spawnApp('mcp-server', {
    demo: true,
    config: {
      governance: {
        baseUrl: governance.url,
        apiKey: { key: GOVERNANCE_KEY },
        timeoutMs: 60_000,
      },
      knowledgeGraph: { baseUrl: kg.url },
      oauth: { accessTokenTtlSeconds: 3_600 },
      ...openToLoad,
    },
    env: profileEnv,
  });
  running.push(mcp);
  const idle = await startIdleServer();
  stopIdle = () => idle.child.kill();
  console.log(
    `governance-api (${instances} generated instances and the demo data), kg-api and mcp-server ready in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );

  // A token of the demo user, and the HTTP request the MCP client sends for a tools/call (replayed
  // by the load clients; the server is stateless, so no session is needed).
  const demoUser = mcp.service.records().find((r) => typeof r.demoLogin === 'string')!;
  const mcpUrl = String(mcp.service.listening.mcp);
  const { accessToken } = await authorize(
    mcpUrl,
    mcp.url,
    String(demoUser.username),
    String(demoUser.demoLogin),
  );
  const captured = await captureToolsCall(mcpUrl, accessToken, 'search_marketplace', {
    query: searchQuery,
    environment: DEMO.environment,
  });

  const sparql =
    'PREFIX skos: <http://www.w3.org/2004/02/skos/core#> SELECT ?c ?l WHERE { ?c skos:prefLabel ?l } LIMIT 10';
  const scenarios: Record<
    string,
    { title: string; app: SpawnedApp; spec: Record<string, unknown>; unit: string; one: string }
  > = {
    governance: {
      title: 'governance-api GET /v1/marketplace/search',
      app: governance,
      unit: 'searches',
      one: 'search',
      spec: {
        url: `${governance.url}/v1/marketplace/search?${new URLSearchParams({ q: searchQuery, environment: DEMO.environment, limit: '10' })}`,
        method: 'GET',
        headers: { authorization: `Bearer ${GOVERNANCE_KEY}` },
        expect: '"hits"',
      },
    },
    'kg-search': {
      title: 'kg-api GET /v1/search/query',
      app: kg,
      unit: 'searches',
      one: 'search',
      spec: {
        url: `${kg.url}/v1/search/query?term=data&limit=10`,
        method: 'GET',
        headers: {},
      },
    },
    'kg-sparql': {
      title: 'kg-api POST /v1/graph/sparql',
      app: kg,
      unit: 'queries',
      one: 'query',
      spec: {
        url: `${kg.url}/v1/graph/sparql`,
        method: 'POST',
        headers: {
          'content-type': 'application/sparql-query',
          accept: 'application/sparql-results+json',
        },
        body: sparql,
        expect: '"bindings"',
      },
    },
    mcp: {
      title: 'mcp-server tools/call search_marketplace',
      app: mcp,
      unit: 'calls',
      one: 'call',
      spec: {
        url: mcpUrl,
        method: 'POST',
        headers: captured.headers,
        body: captured.body,
        expect: '"result"',
        reject: '"isError":true',
      },
    },
  };

  const perSecond: Record<string, number> = {};
  console.log(
    `load: ${clients} clients for ${seconds} s per path, probes every ${probeIntervalMs} ms`,
  );
  for (const name of paths) {
    const scenario = scenarios[name];
    if (!scenario) throw new Error(`unknown path ${name}; known: ${Object.keys(scenarios)}`);
    const result = await underLoad(scenario.app, { ...scenario.spec, clients, seconds });
    perSecond[name] = result.done.perSecond;
    const { done } = result;
    const failures = Object.entries(done.failures);
    console.log(`${scenario.title} (${load()}):`);
    console.log(
      `  ${done.perSecond.toFixed(0)} ${scenario.unit}/s, p50 ${ms(done.p50)}, p99 ${ms(done.p99)}; ${
        failures.length === 0
          ? 'no failures'
          : `failures ${failures.map(([kind, n]) => `${kind}: ${n}`).join(', ')} (e.g. ${JSON.stringify(done.samples)})`
      }`,
    );
    console.log(
      `  CPU per ${scenario.one}: ${Object.entries(result.cpu)
        .map(([app, cpu]) => `${app} ${(cpu / done.served).toFixed(2)} ms`)
        .join(', ')}`,
    );
    for (const [probe, times] of Object.entries(result.probes)) {
      console.log(
        `  ${probe} meanwhile: p50 ${ms(quantile(times.ms, 0.5))}, p99 ${ms(quantile(times.ms, 0.99))}, max ${ms(times.ms.at(-1))} (${times.ms.length} probes, ${times.failed} not 200) (goal: p99 < 100 ms)`,
      );
    }
  }
  if (perSecond.mcp !== undefined && perSecond.governance !== undefined) {
    console.log(
      `mcp tool calls/s / governance-api searches/s = ${(perSecond.mcp / perSecond.governance).toFixed(2)} (goal: >= 0.5)`,
    );
  }

  /** Runs the load clients against one path while probing `app`; the figures of both. */
  async function underLoad(app: SpawnedApp, spec: Record<string, unknown>) {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./load-clients.ts', import.meta.url))],
      {
        env: { ...process.env, LOAD_SPEC: JSON.stringify(spec) },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    let started: () => void;
    const start = new Promise<void>((resolve) => {
      started = resolve;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"started"')) started();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let finished = false;
    void exited.then(() => {
      finished = true;
      started();
    });
    await start;
    const pids = {
      'governance-api': running[0]!,
      'kg-api': running[1]!,
      'mcp-server': running[2]!,
    };
    const cpuBefore = Object.fromEntries(
      Object.entries(pids).map(([name, a]) => [name, cpuMs(a.service.child.pid!)]),
    );
    // The idle control answers on the same machine at the same time: what its probes take is the
    // machine's share (scheduling of this process and the server's), not the app's.
    const [probes, control] = await Promise.all([
      probeUntil(() => finished, app.url, ['/health', '/ready']),
      probeUntil(() => finished, idle.url, ['/health']),
    ]);
    const code = await exited;
    const cpu = Object.fromEntries(
      Object.entries(pids)
        .map(([name, a]) => [name, cpuMs(a.service.child.pid!) - cpuBefore[name]!] as const)
        .filter(([, used]) => used > 100),
    );
    const last = out.trim().split('\n').at(-1) ?? '';
    if (code !== 0 || !last.includes('"done"'))
      throw new Error(`load clients exited ${code}: ${out}`);
    return {
      done: JSON.parse(last) as {
        served: number;
        perSecond: number;
        p50?: number;
        p99?: number;
        failures: Record<string, number>;
        samples: Record<string, string>;
      },
      cpu,
      probes: { ...probes, 'an idle control server /health': control['/health']! },
    };
  }

  /** GET of each path in turn, one every `probeIntervalMs`, until `done()`; latencies sorted. */
  async function probeUntil(done: () => boolean, base: string, probePaths: string[]) {
    const probes = Object.fromEntries(
      probePaths.map((path) => [path, { ms: [] as number[], failed: 0 }]),
    );
    for (let i = 0; !done(); i++) {
      const path = probePaths[i % probePaths.length]!;
      const begin = performance.now();
      const response = await fetch(`${base}${path}`);
      await response.arrayBuffer();
      if (done()) break; // answered after the load ended: not a probe under load
      probes[path]!.ms.push(performance.now() - begin);
      if (response.status !== 200) probes[path]!.failed += 1;
      await new Promise((resolve) => setTimeout(resolve, probeIntervalMs));
    }
    for (const times of Object.values(probes)) times.ms.sort((a, b) => a - b);
    return probes;
  }
} finally {
  stopIdle();
  await Promise.allSettled(running.map((app) => app.close()));
  rmSync(dir, { recursive: true, force: true });
}

/** A bare node:http server in its own process answering every request at once. */
async function startIdleServer() {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log(this.address().port) })",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
  return { child, url: `http://127.0.0.1:${port}` };
}
