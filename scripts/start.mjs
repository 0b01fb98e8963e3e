// `pnpm start`: starts every app that exists on its embedded defaults, each on a fixed port with
// its own data folder under .dcg-data/, and stops them all on Ctrl-C.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const apps = [
  { name: 'governance-api', port: 8080 },
  { name: 'kg-api', port: 8081 },
  { name: 'mcp-server', port: 8082 },
];

const root = new URL('..', import.meta.url).pathname;
const children = [];
for (const app of apps) {
  const manifest = join(root, 'apps', app.name, 'package.json');
  if (!existsSync(manifest) || !JSON.parse(readFileSync(manifest, 'utf8')).scripts?.start) continue;
  const env = {
    ...process.env,
    PORT: process.env[`${app.name.toUpperCase().replace('-', '_')}_PORT`] ?? String(app.port),
    DCG_DATA_DIR: process.env.DCG_DATA_DIR
      ? join(process.env.DCG_DATA_DIR, app.name)
      : join(root, '.dcg-data', app.name),
    DCG_DEMO: process.env.DCG_DEMO ?? '1',
  };
  console.log(`starting ${app.name} on http://127.0.0.1:${env.PORT}`);
  children.push(spawn('pnpm', ['--filter', app.name, 'start'], { env, stdio: 'inherit' }));
}
if (children.length === 0) {
  console.log('no app to start yet');
  process.exit(0);
}
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && code !== 0 && stop());
