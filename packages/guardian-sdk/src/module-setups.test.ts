import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The README's table of CommonJS and TypeScript setups, checked against the built package (its
// `.d.ts` files): a consumer project with `.cts` files, compiled by tsc under each setup.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(packageDir, '..', '..', 'node_modules', '.bin', 'tsc');
const project = mkdtempSync(join(tmpdir(), 'dcg-cts-'));

beforeAll(() => {
  if (!existsSync(join(packageDir, 'dist', 'index.d.ts'))) {
    throw new Error('build @dcg/guardian-sdk first (pnpm --filter @dcg/guardian-sdk build)');
  }
  mkdirSync(join(project, 'node_modules', '@dcg'), { recursive: true });
  symlinkSync(packageDir, join(project, 'node_modules', '@dcg', 'guardian-sdk'), 'dir');
  for (const name of ['hono', 'zod', 'ky', '@hono']) {
    symlinkSync(join(packageDir, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  }
  symlinkSync(
    join(packageDir, 'node_modules', '@dcg', 'contract-schema'),
    join(project, 'node_modules', '@dcg', 'contract-schema'),
    'dir',
  );
  writeFileSync(join(project, 'package.json'), '{ "name": "consumer", "private": true }');
  writeFileSync(
    join(project, 'import-equals.cts'),
    "import sdk = require('@dcg/guardian-sdk');\nimport node = require('@dcg/guardian-sdk/node');\nexport const entry = [sdk.createGuardian, node.startGuardian];\n",
  );
  writeFileSync(
    join(project, 'named-import.cts'),
    "import { createGuardian } from '@dcg/guardian-sdk';\nexport const entry = createGuardian;\n",
  );
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

function compile(module: string, moduleResolution: string): string {
  const result = spawnSync(
    tsc,
    [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--module',
      module,
      '--moduleResolution',
      moduleResolution,
      'import-equals.cts',
      'named-import.cts',
    ],
    { cwd: project, encoding: 'utf8' },
  );
  return `${result.stdout}${result.stderr}`;
}

describe('TypeScript CommonJS (.cts) setups, as the README states them', () => {
  // `require` resolves to CommonJS code with its own `.d.cts` declarations, so even node16 and
  // node18 (which cannot require() ES modules in TypeScript's eyes) compile both import forms.
  it.each([
    ['node16', 'node16'],
    ['node18', 'nodenext'],
    ['node20', 'nodenext'],
    ['nodenext', 'nodenext'],
    ['commonjs', 'node10'],
  ])(
    'module %s, moduleResolution %s: both import forms compile',
    { timeout: 90_000 },
    (module, resolution) => {
      expect(compile(module, resolution)).toBe('');
    },
  );
});
