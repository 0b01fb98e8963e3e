import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultServerConditions } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, without declarations
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import {
  bin,
  type Packed,
  packPublished,
  published,
  root,
  rootPkg,
  type WorkspacePackage,
  workspace,
} from './packed-packages.testkit';
import {
  type ReadmeBlock,
  readmeBlocks,
  readmeFiles,
  shellCommands,
  slug,
  where,
} from './readme-blocks.testkit';

// Every fenced code block of every README, classified by the convention of CONTRIBUTING.md
// ("README code blocks"), and checked as far as it can be:
// - a TypeScript/JavaScript example is type-checked (strict, module nodenext) and run as an ES
//   module in a project of its own whose node_modules holds only what its README says to install:
//   a published package from its packed tarball, a private one from the workspace (through the
//   `@dcg/source` condition, as the workspace uses it). One that calls a service (127.0.0.1:8080,
//   :8081, :8082, :8093) runs against the demo of `pnpm start` (scripts/start.mjs on free ports).
//   It must exit 0, leave its working directory as it found it, and print what its output
//   comments (`console.log(x); // output`) say;
// - a shell block is checked statically: installed packages are published, bins and their
//   commands exist, `pnpm` scripts exist, scripts are executable;
// - a configuration block (json, yaml) parses; an output block (text) is shown only;
// - `<!-- not-runnable: reason -->` before a block exempts it, with its reason in the summary.

const blocks = readmeFiles().flatMap(readmeBlocks);
const work = mkdtempSync(join(tmpdir(), 'dcg-readme-examples-'));
const packed = new Map<string, Packed>();
const consumerModules = join(work, 'consumer', 'node_modules');
const DEVELOPMENT_KEY = `readme-examples-${process.pid}-0123456789abcdef`;
const DATABASE_URL = process.env.DCG_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const tsxLoader = pathToFileURL(createRequire(join(root, 'package.json')).resolve('tsx')).href;
const fromWorkspace = createRequire(join(root, 'packages', 'contract-schema', 'package.json'));

const publishedNames = new Set(published.map(({ pkg }) => pkg.name));
const packageOf = (dir: string): WorkspacePackage | undefined =>
  workspace.find((entry) => entry.dir === dir);

/** The package names the shell blocks of a README install (npm install, pnpm add, yarn add). */
function installedNames(readme: string): string[] {
  const names: string[] = [];
  for (const block of blocks) {
    if (block.readme !== readme || block.kind !== 'shell') continue;
    for (const { argv } of shellCommands(block.code)) {
      const install =
        (argv[0] === 'npm' && ['install', 'i', 'add'].includes(argv[1] ?? '')) ||
        (argv[0] === 'pnpm' && argv[1] === 'add') ||
        (argv[0] === 'yarn' && argv[1] === 'add');
      if (install) names.push(...argv.slice(2).filter((word) => !word.startsWith('-')));
    }
  }
  return names;
}

// ----------------------------------------------------------------------------------------------
// The inventory

describe('README code blocks', () => {
  it('are each classified by the convention (known info string, a reason when not runnable)', () => {
    const problems = blocks
      .filter((block) => block.problem)
      .map((block) => `${where(block)}: ${block.problem}`);
    expect(problems).toEqual([]);
    const count = (kind: string) => blocks.filter((block) => block.kind === kind).length;
    console.log(
      `README code blocks: ${blocks.length} (examples run: ${count('example')}, shell checked: ${count('shell')}, configuration parsed: ${count('config')}, output shown: ${count('output')}, not runnable: ${count('not-runnable')})`,
    );
    for (const block of blocks.filter((b) => b.kind === 'not-runnable')) {
      console.log(`  not runnable: ${where(block)} (${block.lang}): ${block.reason}`);
    }
  });

  it.each(blocks.filter((block) => block.kind === 'config').map((block) => [where(block), block]))(
    '%s parses',
    (_where, block) => {
      const yaml = fromWorkspace('yaml') as {
        parseAllDocuments(source: string): { errors: unknown[] }[];
      };
      if (block.lang === 'json') expect(() => JSON.parse(block.code)).not.toThrow();
      else if (block.lang === 'jsonl') {
        const lines = block.code.split('\n').filter((line) => line.trim() !== '');
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      } else expect(yaml.parseAllDocuments(block.code).flatMap((doc) => doc.errors)).toEqual([]);
    },
  );
});

// ----------------------------------------------------------------------------------------------
// Shell blocks, statically

/** The bins of the published packages, each with its `--help` text (run from the built dist). */
const bins = new Map<string, { pkg: string; file: string }>();
for (const { dir, pkg } of published) {
  for (const [name, file] of Object.entries(pkg.bin ?? {}))
    bins.set(name, { pkg: pkg.name, file: join(dir, file) });
}
const helpTexts = new Map<string, string>();
function helpOf(name: string): string {
  const known = helpTexts.get(name);
  if (known !== undefined) return known;
  const entry = bins.get(name);
  if (!entry) return '';
  const run = (() => {
    try {
      return execFileSync(process.execPath, [entry.file, '--help'], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
    }
  })();
  helpTexts.set(name, run);
  return run;
}

function findWorkspacePackage(filter: string): WorkspacePackage | undefined {
  return workspace.find(({ pkg }) => pkg.name === filter || pkg.name === `@dcg/${filter}`);
}

/** What is wrong with one command of a shell block, if anything. */
function checkCommand(block: ReadmeBlock, argv: string[], installing: Set<string>): string[] {
  const [command = '', ...rest] = argv;
  if (command === '' || command === '…') return []; // an assignment alone, or "the command above"
  const words = rest.filter((word) => !word.startsWith('-'));
  const isInstall =
    (command === 'npm' && ['install', 'i', 'add'].includes(rest[0] ?? '')) ||
    ((command === 'pnpm' || command === 'yarn') && rest[0] === 'add');
  if (isInstall) {
    const problems: string[] = [];
    const allowed = new Set<string>();
    for (const name of installing) {
      const entry = published.find(({ pkg }) => pkg.name === name);
      for (const dep of Object.keys({
        ...entry?.pkg.dependencies,
        ...entry?.pkg.peerDependencies,
      })) {
        allowed.add(dep);
        allowed.add(`@types/${dep.replace(/^@([^/]+)\//, '$1__')}`);
      }
    }
    for (const name of words.slice(1)) {
      if (name.startsWith('@dcg/')) {
        if (!publishedNames.has(name)) problems.push(`${name} is not a published package`);
      } else if (!allowed.has(name)) {
        problems.push(`${name} is no dependency or peer of the @dcg packages this block installs`);
      }
    }
    return problems;
  }
  if (command === 'npx') {
    const [target = '', sub] = words;
    if (target.startsWith('@dcg/')) {
      const entry = published.find(({ pkg }) => pkg.name === target);
      return entry?.pkg.bin ? [] : [`npx ${target}: no published package with a bin`];
    }
    return checkBin(target, sub);
  }
  if (bins.has(command)) return checkBin(command, words[0]);
  if (command === 'pnpm') {
    if (rest[0] === '--filter') {
      const target = findWorkspacePackage(rest[1] ?? '');
      const script = rest[2] ?? '';
      if (!target) return [`pnpm --filter ${rest[1]}: no such workspace package`];
      return target.pkg.scripts?.[script] ? [] : [`${target.pkg.name} has no script "${script}"`];
    }
    return rootPkg.scripts?.[rest[0] ?? ''] ? [] : [`the root package has no script "${rest[0]}"`];
  }
  if (command.startsWith('./')) {
    const file = join(block.dir, command);
    try {
      accessSync(file, constants.X_OK);
      return [];
    } catch {
      return [`${command} is no executable file`];
    }
  }
  return [
    `"${command}" cannot be checked statically: mark the block <!-- not-runnable: reason -->`,
  ];
}

function checkBin(name: string, subcommand: string | undefined): string[] {
  if (!bins.has(name)) return [`${name} is no bin of a published package`];
  if (!subcommand || /[^a-z-]/.test(subcommand)) return [];
  const help = helpOf(name);
  return new RegExp(`\\b${subcommand}\\b`).test(help)
    ? []
    : [`${name} --help does not list the command "${subcommand}"`];
}

describe('README shell blocks', () => {
  it.each(blocks.filter((block) => block.kind === 'shell').map((block) => [where(block), block]))(
    '%s: every command is one that exists',
    (_where, block) => {
      const own = packageOf(block.dir)?.pkg.name;
      const installing = new Set([...installedNames(block.readme), ...(own ? [own] : [])]);
      const commands = shellCommands(block.code);
      expect(commands.length).toBeGreaterThan(0);
      const problems = commands.flatMap(({ argv, text }) =>
        checkCommand(block, argv, installing).map((problem) => `${text}: ${problem}`),
      );
      expect(problems).toEqual([]);
    },
  );
});

// ----------------------------------------------------------------------------------------------
// Examples, run

interface Example {
  block: ReadmeBlock;
  code: string;
  /** consumer: packed tarballs; workspace: a private package through @dcg/source; in-place: beside the README. */
  mode: 'consumer' | 'workspace' | 'in-place';
  vitest: boolean;
}

const examples: Example[] = [];
for (const readme of readmeFiles()) {
  let previous: Example | undefined;
  for (const block of blocks.filter((b) => b.readme === readme && b.kind === 'example')) {
    const code = block.continues && previous ? `${previous.code}\n${block.code}` : block.code;
    const own = packageOf(block.dir);
    const mode = /from '\.\.?\//.test(code)
      ? 'in-place'
      : own && publishedNames.has(own.pkg.name)
        ? 'consumer'
        : 'workspace';
    const example: Example = { block, code, mode, vitest: /from 'vitest'/.test(code) };
    examples.push(example);
    previous = example;
  }
}

const SERVICE_PORTS: Record<string, string> = {
  '8080': 'governance-api',
  '8081': 'kg-api',
  '8082': 'mcp-server',
  '8093': 'postgres-guardian',
};
const callsService = (code: string) =>
  /(127\.0\.0\.1|localhost):(8080|8081|8082|8093)\b/.test(code);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The demo of `pnpm start`, on free ports, with its own data folder. */
let demo: { child: ChildProcess; urls: Map<string, string>; output: () => string } | undefined;

async function startDemo(): Promise<void> {
  // scripts/start.mjs builds a stale dist itself; build here, outside the wait for the listeners.
  buildIfStale(Object.values(SERVICE_PORTS).map((app) => join(root, 'apps', app)));
  const ports = new Map<string, number>();
  for (const name of Object.values(SERVICE_PORTS)) ports.set(name, await freePort());
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    LOG_LEVEL: 'warn',
    DCG_DATA_DIR: join(work, 'demo-data'),
    DCG_GOVERNANCE_DEVELOPMENT_KEY: DEVELOPMENT_KEY,
  };
  for (const [name, port] of ports) {
    env[`${name.toUpperCase().replace('-', '_')}_PORT`] = String(port);
  }
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start:\n${out}`)), 300_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if ((out.match(/"msg":"listening"/g) ?? []).length >= ports.size) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the demo exited (${code}):\n${out}`));
    });
  });
  const urls = new Map<string, string>();
  for (const [port, name] of Object.entries(SERVICE_PORTS)) {
    urls.set(port, `http://127.0.0.1:${ports.get(name)}`);
  }
  demo = { child, urls, output: () => out };
}

async function stopDemo(): Promise<void> {
  const child = demo?.child;
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

/** The example's code with the demo's fixed URLs pointing at the demo this test started. */
function againstDemo(code: string): string {
  if (!demo) return code;
  const urls = demo.urls;
  return code.replace(
    /(?:http:\/\/)?(?:127\.0\.0\.1|localhost):(8080|8081|8082|8093)\b/g,
    (_all, port: string) => urls.get(port) ?? _all,
  );
}

/** Links `name` into `modules`, from the packed tarballs or the workspace. */
function link(modules: string, name: string, from: string): void {
  const target = join(modules, name);
  if (existsSync(target)) return;
  const source = packed.get(name)?.installed ?? resolvePackageDir(name, from);
  if (!source) throw new Error(`${name}: not in the packed packages nor in the workspace`);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(source, target, 'dir');
}

function resolvePackageDir(name: string, from: string): string | undefined {
  for (const base of [
    join(consumerModules),
    join(from, 'node_modules'),
    join(root, 'node_modules'),
  ]) {
    if (existsSync(join(base, name, 'package.json'))) return realpathSync(join(base, name));
  }
  for (const { dir } of workspace) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) {
      return realpathSync(join(dir, 'node_modules', name));
    }
  }
  return undefined;
}

/** A project of its own for an example: only what its README installs. */
function exampleProject(example: Example): { dir: string; file: string; cwd: string } {
  const { block } = example;
  const dir = join(work, 'examples', slug(block));
  const modules = join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  link(modules, '@types/node', root);
  const own = packageOf(block.dir);
  if (example.mode === 'consumer' && own) {
    link(modules, own.pkg.name, block.dir);
    for (const name of installedNames(block.readme)) link(modules, name, block.dir);
  } else if (own) {
    // A private package is used inside the workspace: itself and what it depends on.
    mkdirSync(join(modules, dirname(own.pkg.name)), { recursive: true });
    if (!existsSync(join(modules, own.pkg.name)))
      symlinkSync(own.dir, join(modules, own.pkg.name), 'dir');
    const { dependencies, devDependencies, peerDependencies } = own.pkg;
    for (const name of Object.keys({ ...dependencies, ...devDependencies, ...peerDependencies })) {
      link(modules, name, own.dir);
    }
  }
  if (example.vitest) link(modules, 'vitest', root);
  const name = example.vitest ? 'example.test.mts' : 'example.mts';
  const file =
    example.mode === 'in-place'
      ? join(block.dir, `readme-example-${process.pid}-${block.line}.tmp.mts`)
      : join(dir, name);
  writeFileSync(file, againstDemo(example.code));
  // A consumer's settings for a published package; the workspace's own for workspace code (its
  // sources are compiled with the example).
  const compilerOptions =
    example.mode === 'consumer'
      ? {
          strict: true,
          target: 'es2022',
          lib: ['es2023'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          resolveJsonModule: true,
          skipLibCheck: true,
        }
      : { allowImportingTsExtensions: true };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify(
      {
        ...(example.mode === 'consumer' ? {} : { extends: join(root, 'tsconfig.base.json') }),
        compilerOptions: {
          ...compilerOptions,
          types: ['node'],
          typeRoots: [join(modules, '@types')],
          noEmit: true,
        },
        files: [file],
      },
      null,
      2,
    ),
  );
  if (example.vitest) {
    // The workspace's own settings (vitest.shared.ts): its conditions and its hook timeout.
    const conditions = ['@dcg/source', ...defaultServerConditions];
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default ${JSON.stringify({
        resolve: { conditions },
        ssr: { resolve: { conditions } },
        test: { include: [name], testTimeout: 60_000, hookTimeout: 120_000 },
      })};\n`,
    );
  }
  const cwd = join(dir, 'cwd');
  mkdirSync(cwd, { recursive: true });
  return { dir, file, cwd };
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        timeout: 120_000,
        maxBuffer: 16 * 2 ** 20,
        env: {
          ...process.env,
          NO_COLOR: '1',
          GOVERNANCE_API_KEY: DEVELOPMENT_KEY,
          DCG_API_KEY: DEVELOPMENT_KEY,
          DATABASE_URL,
          ...env,
        },
      },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ status, stdout, stderr });
      },
    ).stdin?.end();
  });
}

/**
 * What the example's output comments promise: the words of `// …` after a `console.log(…)` on the
 * same line or on the comment lines right below it (`…` elides, so only words are compared).
 */
function promisedWords(code: string): string[] {
  const lines = code.split('\n');
  const comments: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (!/console\.log\(/.test(line)) continue;
    const inline = /\)\s*;?\s*\/\/\s*(.*)$/.exec(line)?.[1];
    if (inline) comments.push(inline);
    else for (let j = i + 1; /^\s*\/\/ /.test(lines[j] ?? ''); j++) comments.push(lines[j] ?? '');
  }
  // Words only (identifiers and codes of three letters or more), not the prose of asides in
  // parentheses ("1 (`en` literals only)").
  return comments.flatMap(
    (comment) =>
      comment
        .replace(/^\s*\/\/\s*/, '')
        .replace(/\([^()]*[a-z]{3,} [^()]*\)/g, '')
        .match(/[A-Za-z_][A-Za-z0-9_]{2,}/g) ?? [],
  );
}

const needsDemo = examples.some((example) => callsService(example.code));

describe('README examples', () => {
  beforeAll(async () => {
    for (const [name, entry] of packPublished(work)) packed.set(name, entry);
    if (needsDemo) await startDemo();
  }, 1_200_000);

  afterAll(async () => {
    await stopDemo();
    for (const example of examples) {
      if (example.mode === 'in-place') {
        rmSync(
          join(example.block.dir, `readme-example-${process.pid}-${example.block.line}.tmp.mts`),
          {
            force: true,
          },
        );
      }
    }
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it.each(examples.map((example) => [where(example.block), example.mode, example]))(
    '%s (%s) type-checks and runs as written',
    { timeout: 300_000 },
    async (_where, _mode, example) => {
      const { dir, file, cwd } = exampleProject(example);
      const typecheck = await run(bin('tsc'), ['-p', join(dir, 'tsconfig.json')], dir);
      expect(`${typecheck.stdout}${typecheck.stderr}`, 'tsc').toBe('');

      const conditions = example.mode === 'consumer' ? [] : ['--conditions=@dcg/source'];
      const result = example.vitest
        ? await run(
            process.execPath,
            [
              join(root, 'node_modules', 'vitest', 'vitest.mjs'),
              'run',
              '--root',
              dir,
              '--config',
              join(dir, 'vitest.config.mjs'),
            ],
            dir,
          )
        : await run(process.execPath, [...conditions, '--import', tsxLoader, file], cwd);
      const output = `${result.stdout}\n${result.stderr}`;
      expect(result.status, output).toBe(0);
      expect(readdirSync(cwd), 'the example wrote into its working directory').toEqual([]);
      const missing = promisedWords(example.code).filter((word) => !result.stdout.includes(word));
      expect(
        missing,
        `its output comments promise words it did not print:\n${result.stdout}`,
      ).toEqual([]);
    },
  );
});
