// `pnpm start`: starts every app that exists on its embedded defaults, each on a fixed port with
// its own data folder under .dcg-data/, and stops them all on Ctrl-C or SIGTERM. If one app cannot
// start, the others are stopped too, so that a broken platform never looks half up.
// Each app is one node process (no tsx wrapper, no shell), so a signal reaches the server itself,
// which stops gracefully: in-flight requests finish within its `server.shutdownTimeoutMs`.
// An app with a tsup.config.ts runs compiled, as in production (`node dist/main.js`), built first
// when its dist is missing or older than its sources; an app without one runs from its sources.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { endOfLifeNotice } from './node-line.mjs';

const apps = [
  { name: 'governance-api', port: 8080 },
  { name: 'kg-api', port: 8081 },
  { name: 'mcp-server', port: 8082 },
  { name: 'postgres-guardian', port: 8093 },
];

const root = new URL('..', import.meta.url).pathname;
// One governance-api development key for this run, handed to governance-api (which uses it when no
// key is configured, instead of a random one) and to mcp-server (whose policy tool needs a key).
const governanceDevelopmentKey =
  process.env.DCG_GOVERNANCE_DEVELOPMENT_KEY || `dcg-dev-${randomBytes(16).toString('hex')}`;
// Only a backstop: each app ends its own stop within its shutdown deadline (10 s by default).
const KILL_AFTER_MS = 30_000;
const children = [];
let stopping = false;

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  // Each app runs in its own process group: signal the group so nothing is left behind.
  for (const child of children) {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
    }
  }
  const deadline = setTimeout(() => {
    for (const child of children) {
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }
    }
  }, KILL_AFTER_MS);
  deadline.unref();
  Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.on('exit', r)) : null)),
  ).then(() => process.exit(code));
}

// Once per start, before the apps' own output: the apps run on this same Node binary.
const notice = endOfLifeNotice(process.version);
if (notice) console.warn(`note: ${notice}`);

const present = apps.filter((app) => existsSync(join(root, 'apps', app.name, 'src', 'main.ts')));
const compiled = (app) => existsSync(join(root, 'apps', app.name, 'tsup.config.ts'));
try {
  buildIfStale(present.filter(compiled).map((app) => join(root, 'apps', app.name)));
} catch (error) {
  console.error(`${error.message}; nothing started`);
  process.exit(1);
}

for (const app of present) {
  const dir = join(root, 'apps', app.name);
  const portVariable = `${app.name.toUpperCase().replace('-', '_')}_PORT`;
  const env = {
    ...process.env,
    PORT: process.env[portVariable] ?? String(app.port),
    DCG_DATA_DIR: process.env.DCG_DATA_DIR
      ? join(process.env.DCG_DATA_DIR, app.name)
      : join(root, '.dcg-data', app.name),
    DCG_DEMO: process.env.DCG_DEMO ?? '1',
    DCG_GOVERNANCE_DEVELOPMENT_KEY: governanceDevelopmentKey,
  };
  console.log(`starting ${app.name} on http://127.0.0.1:${env.PORT} (${portVariable} to change)`);
  const args = compiled(app)
    ? ['--enable-source-maps', 'dist/main.js']
    : ['--conditions=@dcg/source', '--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, { cwd: dir, env, stdio: 'inherit', detached: true });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${app.name} stopped (${signal ?? `exit code ${code}`}); stopping the platform`);
    stopAll(code || 1);
  });
  children.push(child);
}

if (children.length === 0) {
  console.log('no app to start yet');
  process.exit(0);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
