import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

/** Every module the root entry reaches, following relative imports. */
function reachable(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = readFileSync(file, 'utf8');
    seen.set(file, text);
    for (const match of text.matchAll(/from '(\.[^']+)'/g)) {
      visit(`${resolve(dirname(file), match[1] as string)}.ts`);
    }
  };
  visit(entry);
  return seen;
}

describe('the root entry', () => {
  it('stays runtime-neutral: no node: modules, no database drivers, no local model', () => {
    const modules = reachable(join(here, 'index.ts'));
    expect(modules.size).toBeGreaterThan(5);
    for (const [file, text] of modules) {
      expect(file, file).not.toContain('/node/');
      expect(text, file).not.toMatch(/from '(node:[^']+|better-sqlite3|pg|@energetic-ai\/[^']+)'/);
    }
  });
});
