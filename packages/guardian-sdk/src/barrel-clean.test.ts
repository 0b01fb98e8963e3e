import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

/** Every module reachable from `entry` through relative imports, with its bare imports. */
function graph(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/^(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map(
      (m) => m[1] as string,
    );
    seen.set(
      file,
      specifiers.filter((s) => !s.startsWith('.')),
    );
    for (const s of specifiers.filter((s) => s.startsWith('.')))
      visit(resolve(dirname(file), `${s}.ts`));
  };
  visit(entry);
  return seen;
}

describe('runtime-neutral root entry', () => {
  it('imports nothing from node: and no database driver', () => {
    const modules = graph(join(here, 'index.ts'));
    expect(modules.size).toBeGreaterThan(10);
    for (const [file, bare] of modules) {
      for (const specifier of bare) {
        expect(
          specifier.startsWith('node:') || specifier === 'pg',
          `${file} imports ${specifier}`,
        ).toBe(false);
      }
    }
  });
});
