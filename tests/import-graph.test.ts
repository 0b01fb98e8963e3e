import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The shape of the import graph, kept from drifting back: packages never depend on apps (test
 * kits included), the workspace's package graph has no cycle, and no two product source files
 * reach each other through their imports.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Workspace {
  name: string;
  dir: string;
  kind: 'package' | 'app';
  dependsOn: string[];
}

function workspaces(): Workspace[] {
  return (['packages', 'apps'] as const).flatMap((folder) =>
    readdirSync(join(root, folder))
      .map((entry) => join(root, folder, entry))
      .filter((dir) => existsSync(join(dir, 'package.json')))
      .map((dir) => {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<
          string,
          Record<string, string> | string | undefined
        >;
        const dependsOn = ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((field) =>
          Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
        );
        return {
          name: manifest.name as string,
          dir,
          kind: folder === 'packages' ? ('package' as const) : ('app' as const),
          dependsOn,
        };
      }),
  );
}

/** The cycles of `edges` (one per edge that closes one), each as the list of its nodes. */
function findCycles(edges: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...path.slice(path.indexOf(node)), node]);
      return;
    }
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) visit(next);
    path.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) visit(node);
  return cycles;
}

/** Product source files of a workspace: src/**.ts without tests, test kits and fixtures. */
function productFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) {
        if (!entry.startsWith('__')) walk(path);
      } else if (/\.tsx?$/.test(entry) && !/\.(test|testkit|conformance|d)\.tsx?$/.test(entry)) {
        out.push(path);
      }
    }
  };
  if (existsSync(join(dir, 'src'))) walk(join(dir, 'src'));
  return out;
}

const relativeImport = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The product file a relative specifier names (`./x`, `./x.js`, `./x/index`), if any. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) => existsSync(path));
}

describe('the import graph', () => {
  const all = workspaces();
  const apps = new Set(all.filter((w) => w.kind === 'app').map((w) => w.name));

  it('packages never depend on apps', () => {
    const upward = all
      .filter((w) => w.kind === 'package')
      .flatMap((w) => w.dependsOn.filter((d) => apps.has(d)).map((d) => `${w.name} -> ${d}`));
    expect(upward).toEqual([]);
  });

  it('the workspace packages form no cycle', () => {
    const names = new Set(all.map((w) => w.name));
    const edges = new Map(all.map((w) => [w.name, w.dependsOn.filter((d) => names.has(d))]));
    expect(findCycles(edges)).toEqual([]);
  });

  it('no product source file reaches itself through its imports', () => {
    const edges = new Map<string, string[]>();
    for (const workspace of all) {
      for (const file of productFiles(workspace.dir)) {
        const text = readFileSync(file, 'utf8');
        const targets = [...text.matchAll(relativeImport)]
          .map((match) => resolveImport(file, match[1] as string))
          .filter((target): target is string => target !== undefined);
        edges.set(
          relative(root, file),
          targets.map((t) => relative(root, t)),
        );
      }
    }
    expect(edges.size).toBeGreaterThan(100);
    expect(findCycles(edges)).toEqual([]);
  });
});
