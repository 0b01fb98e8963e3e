// Builds apps (and the workspace packages they use) when their dist is missing or older than any
// source it is built from; does nothing otherwise, so that starting a built app costs no build.
// Usage: node scripts/build-if-stale.mjs [app-dir ...]   (default: the current directory)
// The build itself is `turbo run build`, which builds the packages first (`^build`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.turbo', '__fixtures__', '__bench__']);

function newestSource(dir, newest = 0) {
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = newestSource(path, newest);
    else if (!/\.test\.ts$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function inputsOf(dir) {
  let newest = newestSource(join(dir, 'src'));
  for (const file of ['package.json', 'tsup.config.ts', 'tsconfig.json']) {
    const path = join(dir, file);
    if (existsSync(path)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether `<app>/dist/main.js` is missing or older than the app's or any package's sources. */
export function isStale(appDir) {
  const main = join(appDir, 'dist', 'main.js');
  if (!existsSync(main)) return true;
  const built = statSync(main).mtimeMs;
  if (inputsOf(appDir) > built) return true;
  const packages = join(root, 'packages');
  return readdirSync(packages).some((name) => {
    const dir = join(packages, name);
    if (!existsSync(join(dir, 'tsup.config.ts'))) return false;
    const dist = join(dir, 'dist');
    return !existsSync(dist) || inputsOf(dir) > built;
  });
}

/** Builds the stale ones of these app folders in one turbo run; throws when the build fails. */
export function buildIfStale(appDirs) {
  const stale = appDirs.filter(isStale);
  if (stale.length === 0) return;
  const filters = stale.map((dir) => `--filter=./apps/${basename(dir)}`);
  console.error(`building ${stale.map((d) => basename(d)).join(', ')} (dist missing or stale)`);
  const turbo = join(root, 'node_modules', '.bin', 'turbo');
  const result = spawnSync(turbo, ['run', 'build', ...filters, '--output-logs=errors-only'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`the build failed (exit code ${result.status})`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : [process.cwd()];
  try {
    buildIfStale(dirs.map((d) => resolve(d)));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
