import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The README's example is scripts/example.ts as written, and it prints what its comments say.

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(packageDir, '..', '..', 'node_modules', '.bin', 'tsx');

describe('the README example', () => {
  it('is scripts/example.ts, and runs', async () => {
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('\n## Example')))?.[1];
    const script = readFileSync(join(packageDir, 'scripts', 'example.ts'), 'utf8');
    expect(script.replace(/^(\/\/.*\n)+/, '')).toBe(block);
    const { stdout } = await promisify(execFile)(
      tsx,
      ['--conditions=@dcg/source', 'scripts/example.ts'],
      { cwd: packageDir },
    );
    expect(stdout).toBe("[ 'Invoices' ]\n{ q: 'invoices', limit: 10, offset: 0 }\n[ 'mode' ]\n");
  });
});
