import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// The workspace's packages as a consumer gets them: `pnpm pack` (the same manifest rewrite as
// `pnpm publish`, see .pnpmfile.cjs) gives each published package's tarball, unpacked into the
// node_modules of a fresh consumer project beside what npm would install with them. Shared by
// published-packages.test.ts and readme-examples.test.ts.

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const packagesDir = join(root, 'packages');
export const bin = (name: string) => join(root, 'node_modules', '.bin', name);

export interface PackageJson {
  name: string;
  version: string;
  license?: string;
  private?: boolean;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  engines?: { node?: string };
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: string | { url?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

export const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;

export interface WorkspacePackage {
  dir: string;
  pkg: PackageJson;
}

/** Every package and app of the workspace. */
export const workspace: WorkspacePackage[] = [
  ...readdirSync(packagesDir).map((dir) => join(packagesDir, dir)),
  ...readdirSync(join(root, 'apps')).map((dir) => join(root, 'apps', dir)),
]
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, pkg: readJson(join(dir, 'package.json')) }));
export const privateNames = new Set(
  workspace.filter(({ pkg }) => pkg.private).map(({ pkg }) => pkg.name),
);
/** The packages that are published (not private, under packages/). */
export const published = workspace.filter(
  ({ dir, pkg }) => !pkg.private && dir.startsWith(packagesDir),
);
export const rootPkg = readJson(join(root, 'package.json'));

export interface Packed {
  dir: string;
  pkg: PackageJson;
  tarball: string;
  files: string[];
  manifest: PackageJson;
  installed: string;
}

/**
 * Packs every published package into `work/tarballs` and unpacks each into
 * `work/consumer/node_modules`, then links their dependencies and peers from the workspace, as npm
 * would install them. Returns the packages by name; the consumer project is `work/consumer`.
 */
export function packPublished(work: string): Map<string, Packed> {
  const consumer = join(work, 'consumer');
  const packed = new Map<string, Packed>();
  mkdirSync(join(consumer, 'node_modules'), { recursive: true });
  for (const { dir, pkg } of published) {
    const out = join(work, 'tarballs');
    const json = execFileSync('pnpm', ['pack', '--json', '--pack-destination', out], {
      cwd: dir,
      encoding: 'utf8',
    });
    const tarball = (JSON.parse(json) as { filename: string }).filename;
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((file) => file.replace(/^package\//, ''));
    const installed = join(consumer, 'node_modules', pkg.name);
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['xzf', tarball, '-C', installed, '--strip-components=1']);
    const manifest = readJson(join(installed, 'package.json'));
    packed.set(pkg.name, { dir, pkg, tarball, files, manifest, installed });
  }
  // What npm would install beside them: their dependencies and peers, from the workspace.
  for (const { dir, manifest } of packed.values()) {
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      const target = join(consumer, 'node_modules', name);
      if (packed.has(name) || existsSync(target)) continue;
      mkdirSync(dirname(target), { recursive: true });
      symlinkSync(realpathSync(join(dir, 'node_modules', name)), target, 'dir');
    }
  }
  return packed;
}

/** Expands the `exports` map of an unpacked package to concrete specifiers. */
export function specifiers(dir: string, pkg: PackageJson): string[] {
  const result: string[] = [];
  for (const [key, target] of Object.entries(pkg.exports ?? {})) {
    if (key === './package.json') continue;
    if (!key.includes('*')) {
      result.push(key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`);
      continue;
    }
    const pattern = typeof target === 'string' ? target : JSON.stringify(target);
    const match = /"?(\.\/[^"]*\*[^"]*)"?/.exec(pattern)?.[1];
    if (!match) continue;
    const [prefix = '', suffix = ''] = match.split('*');
    const folder = join(dir, dirname(prefix));
    for (const file of readdirSync(folder)) {
      const rel = `./${relative(dir, join(folder, file))}`;
      if (rel.startsWith(prefix) && rel.endsWith(suffix)) {
        const stem = rel.slice(prefix.length, rel.length - suffix.length);
        result.push(`${pkg.name}/${key.slice(2).replace('*', stem)}`);
      }
    }
  }
  return result;
}
