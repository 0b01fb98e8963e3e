import { spawnApp } from '@dcg/testing-process';
import type { TestProject } from 'vitest/node';
import { GOVERNANCE_KEY } from './backends.testkit';

/**
 * Starts the real backends once for the project's test run, as their own processes (the apps are
 * started, never imported: packages stand below apps), and stops them after it: governance-api
 * and kg-api with their demo data, plus a second kg-api that the first passes SPARQL through to
 * as source "upstream".
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [governance, upstream] = await Promise.all([
    spawnApp('governance-api', {
      demo: true,
      config: {
        auth: {
          apiKeys: [{ name: 'mcp', key: GOVERNANCE_KEY, role: 'reader' }],
          developmentKey: false,
        },
        provisioning: { pollIntervalMs: 20, pollTimeoutMs: 5000, requestTimeoutMs: 5000 },
        // Search by words only, whatever the time since start-up (the tests expect `lexical`).
        embeddingsSearch: { enabled: false },
      },
    }),
    spawnApp('kg-api', { demo: true, config: { auth: { developmentKey: false } } }),
  ]);
  const kg = await spawnApp('kg-api', {
    demo: true,
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
  }).catch(async (error: unknown) => {
    await Promise.allSettled([governance.close(), upstream.close()]);
    throw error;
  });
  project.provide('backends', { governance: governance.url, kg: kg.url, upstream: upstream.url });
  return async () => {
    await Promise.allSettled([governance.close(), kg.close(), upstream.close()]);
  };
}
