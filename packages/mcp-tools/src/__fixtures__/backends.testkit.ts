import { inject } from 'vitest';

export { DEMO, GOVERNANCE_KEY } from './demo-data';

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
