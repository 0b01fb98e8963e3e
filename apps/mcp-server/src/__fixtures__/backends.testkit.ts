// mcp-server's tests and benchmark run governance-api and kg-api in process (an app's tests may
// start other apps; packages start them as processes, see @dcg/mcp-tools' global setup). The demo
// data and key are the ones the mcp-tools suite uses, so the two cannot drift apart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningGovernanceApi, startGovernanceApi } from '@dcg/governance-api';
import { createLogger } from '@dcg/http-kit';
import { type RunningKgApi, startKgApi } from '@dcg/kg-api';
import { GOVERNANCE_KEY } from '../../../../packages/mcp-tools/src/__fixtures__/demo-data';

export { DEMO, GOVERNANCE_KEY } from '../../../../packages/mcp-tools/src/__fixtures__/demo-data';

/** Real governance-api and kg-api (with an upstream kg-api as passthrough source "upstream"). */
export interface Backends {
  governance: RunningGovernanceApi;
  kg: RunningKgApi;
  upstream: RunningKgApi;
  close(): Promise<void>;
}

/**
 * Starts governance-api and kg-api with their demo data on loopback (free ports, own data
 * folders), plus a second kg-api that the first passes SPARQL through to as source "upstream".
 *
 * @example
 * const backends = await startBackends(); … await backends.close();
 */
export async function startBackends(
  options: {
    /** Fills governance-api's data folder before it starts (the demo data is added on top). */
    seedGovernance?: (dataDir: string) => Promise<void>;
  } = {},
): Promise<Backends> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-backends-'));
  const logger = createLogger('test', { level: 'silent' });
  await options.seedGovernance?.(join(dir, 'governance'));
  const governance = await startGovernanceApi({
    dataDir: join(dir, 'governance'),
    demo: true,
    config: {
      auth: {
        apiKeys: [{ name: 'mcp', key: GOVERNANCE_KEY, role: 'reader' }],
        developmentKey: false,
      },
      provisioning: { pollIntervalMs: 20, pollTimeoutMs: 5000, requestTimeoutMs: 5000 },
    },
    logger,
  });
  const upstream = await startKgApi({
    config: { auth: { developmentKey: false } },
    dataDir: join(dir, 'upstream'),
    demo: true,
    logger,
  });
  const kg = await startKgApi({
    config: {
      auth: { developmentKey: false },
      sources: [
        {
          id: 'upstream',
          name: 'Upstream thesaurus',
          baseUrl: upstream.url,
          modes: { ingestion: { enabled: false }, passthrough: { enabled: true } },
        },
      ],
    },
    dataDir: join(dir, 'kg'),
    demo: true,
    logger,
  });
  return {
    governance,
    kg,
    upstream,
    async close() {
      await Promise.allSettled([governance.close(), kg.close(), upstream.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
