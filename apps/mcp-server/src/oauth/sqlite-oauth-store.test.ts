import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeOAuthStoreConformance } from './oauth-store.conformance';
import { openSqliteOAuthStore } from './sqlite-oauth-store';

const dir = mkdtempSync(join(tmpdir(), 'oauth-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
describeOAuthStoreConformance('sqlite', async () => {
  n += 1;
  return openSqliteOAuthStore(join(dir, `oauth-${n}.db`), join(dir, `keys-${n}.json`));
});
