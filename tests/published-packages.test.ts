import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every published package must work for someone who installs it: its built `dist` is importable
// from a plain Node ESM script (no bundler, no `@dcg/source` condition), through every entry of
// its `exports` map. `pnpm test` builds the packages first.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(root, 'packages');

interface PackageJson {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
}

const published = readdirSync(packagesDir)
  .map((dir) => join(packagesDir, dir))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({
    dir,
    pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson,
  }))
  .filter(({ pkg }) => !pkg.private);

/** Expands the `exports` map to concrete specifiers (a `*` entry becomes one per matching file). */
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

describe.each(published)('$pkg.name', ({ dir, pkg }) => {
  it('has a built dist', () => {
    expect(existsSync(join(dir, 'dist')), `run pnpm build in ${pkg.name}`).toBe(true);
  });

  it('is importable from a plain Node ESM script through every export', () => {
    const list = specifiers(dir, pkg);
    expect(list.length).toBeGreaterThan(0);
    const script = `
      const specifiers = ${JSON.stringify(list)};
      const seen = {};
      for (const s of specifiers) {
        const m = s.endsWith('.json') ? await import(s, { with: { type: 'json' } }) : await import(s);
        seen[s] = Object.keys(m).length;
      }
      console.log(JSON.stringify(seen));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
    });
    const seen = JSON.parse(out) as Record<string, number>;
    for (const s of list) expect(seen[s], `${s} exports nothing`).toBeGreaterThan(0);
  });
});
