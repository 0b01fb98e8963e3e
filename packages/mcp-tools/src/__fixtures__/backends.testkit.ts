import { inject } from 'vitest';

/** The key of governance-api in these tests (role reader). */
export const GOVERNANCE_KEY = 'mcp-tools-test-reader-key-0123';

/** The demo data of governance-api. */
export const DEMO = {
  environment: 'production',
  systemId: 'urn:dmb:dp:finance:orders:0',
  contracts: {
    compliant: 'urn:dmb:cmp:finance:orders:0:orders-port',
    violated: 'urn:dmb:cmp:finance:orders:0:invoices-port',
    unprocessable: 'urn:dmb:cmp:finance:orders:0:customers-port',
  },
  concept: 'https://dcg.example.org/vocab/governance/data-product',
} as const;

/** The base URLs of the backends that the project's global setup started. */
export interface BackendUrls {
  governance: string;
  kg: string;
  upstream: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    backends: BackendUrls;
  }
}

/** Real governance-api and kg-api (with an upstream kg-api as passthrough source "upstream"). */
export interface Backends {
  governance: { url: string };
  kg: { url: string };
  upstream: { url: string };
  /** Nothing to do: the global setup stops the processes after the run. */
  close(): Promise<void>;
}

/**
 * The backends of this test run: governance-api and kg-api with their demo data, and a second
 * kg-api that the first passes SPARQL through to as source "upstream", started once per run as
 * their own processes by `backends.global-setup.ts` (the tools only read, so the files share them).
 *
 * @example
 * const backends = await startBackends(); … await backends.close();
 */
export async function startBackends(): Promise<Backends> {
  const urls = inject('backends');
  return {
    governance: { url: urls.governance },
    kg: { url: urls.kg },
    upstream: { url: urls.upstream },
    close: async () => undefined,
  };
}
