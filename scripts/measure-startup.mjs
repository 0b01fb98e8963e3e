// Start-up time and memory of each app as production runs it (`node dist/main.js`), beside the
// same app run from its sources through tsx, for the README.
// Usage: node scripts/measure-startup.mjs [runs]   (default 5; builds the apps first when stale)
// Measured per run, in a fresh data folder, on a free port, without the demo data:
//   listening: from spawn to the "listening" log line; ready: until GET /ready answers 200;
//   RSS: resident memory of the process once ready (from /proc, Linux), then after 200 requests.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';

const root = new URL('..', import.meta.url).pathname;
const runs = Number(process.argv[2] ?? 5);
const apps = ['governance-api', 'kg-api'];
const modes = {
  'node dist/main.js': ['--enable-source-maps', 'dist/main.js'],
  'tsx src/main.ts (development)': ['--conditions=@dcg/source', '--import', 'tsx', 'src/main.ts'],
};

const rssMb = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
};

async function once(app, args) {
  const data = mkdtempSync(join(tmpdir(), `measure-${app}-`));
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: join(root, 'apps', app),
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DCG_DATA_DIR: data,
      DCG_DEMO: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    const url = await new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
        if (line) resolve(JSON.parse(line).url);
      });
      child.once('exit', (code) => reject(new Error(`${app} exited with ${code}:\n${out}`)));
    });
    const listening = performance.now() - started;
    while ((await fetch(`${url}/ready`)).status !== 200) await new Promise((r) => setTimeout(r, 5));
    const ready = performance.now() - started;
    const rssReady = rssMb(child.pid);
    for (let i = 0; i < 200; i++) await (await fetch(`${url}/openapi.json`)).arrayBuffer();
    return { listening, ready, rssReady, rssAfter: rssMb(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) =>
      child.exitCode !== null ? resolve() : child.once('exit', resolve),
    );
    rmSync(data, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

buildIfStale(apps.map((app) => join(root, 'apps', app)));
console.log(
  `${runs} runs each, median; Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model.trim()}), load average ${loadavg()[0]?.toFixed(1)} at the start\n`,
);
console.log(
  '| app | run as | to `listening` | to `/ready` 200 | RSS when ready | RSS after 200 requests |',
);
console.log('|---|---|---|---|---|---|');
for (const app of apps) {
  for (const [mode, args] of Object.entries(modes)) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await once(app, args));
    const m = (key) => median(results.map((r) => r[key]));
    console.log(
      `| ${app} | \`${mode}\` | ${m('listening').toFixed(0)} ms | ${m('ready').toFixed(0)} ms | ${m('rssReady').toFixed(0)} MB | ${m('rssAfter').toFixed(0)} MB |`,
    );
  }
}
