import { type SpawnedApp, spawnApp } from '@dcg/testing-process';

export const ADMIN_KEY = 'gsdk-admin-key-0123456789';
export const GUARDIAN_KEY = 'gsdk-guardian-key-0123456789';

/**
 * A real governance-api as its own process (embedded storage in a temporary folder), with an
 * admin and a guardian key.
 */
export interface TestGovernance {
  api: SpawnedApp;
  url: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: never }>;
  /** Registers a guardian template served at `url`; returns its passive policy id. */
  registerGuardian(templateId: string, url: string): Promise<string>;
  /** Deploys or undeploys and waits for the plan to end. */
  plan(
    operation: 'deploy' | 'undeploy',
    body: Record<string, unknown>,
  ): Promise<{ status: string; errors: unknown[] }>;
  /** Evaluation results of a data contract, newest first. */
  results(contractId: string): Promise<Array<{ status: string; environment: string }>>;
  close(): Promise<void>;
}

export async function startTestGovernance(): Promise<TestGovernance> {
  const api = await spawnApp('governance-api', {
    config: {
      auth: {
        apiKeys: [
          { name: 'admin', key: ADMIN_KEY, role: 'platform-admin' },
          { name: 'guardian', key: GUARDIAN_KEY, role: 'guardian' },
        ],
      },
      provisioning: { pollIntervalMs: 50, pollTimeoutMs: 10_000, requestTimeoutMs: 10_000 },
    },
  });
  const call: TestGovernance['call'] = async (method, path, body) => {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as never };
  };
  return {
    api,
    url: api.url,
    call,
    async registerGuardian(templateId, url) {
      const { status, body } = await call('POST', '/v1/infrastructure-templates', {
        id: templateId,
        name: 'Guardian',
        version: '1.0.0',
        url,
        properties: {
          dataContractGuardian: {
            policies: [
              { resourceType: 'dataproduct', spec: { name: 'Contracts', description: 'Checked' } },
            ],
          },
        },
      });
      if (status !== 201) throw new Error(`template: ${status} ${JSON.stringify(body)}`);
      return (body as { policies: Array<{ policyId: string }> }).policies[0]!.policyId;
    },
    async plan(operation, body) {
      const started = await call('POST', `/v1/provisioning/${operation}`, body);
      if (started.status !== 202) {
        throw new Error(`${operation}: ${started.status} ${JSON.stringify(started.body)}`);
      }
      const id = (started.body as { id: string }).id;
      for (let i = 0; i < 400; i++) {
        const plan = (await call('GET', `/v1/provisioning/plans/${id}`)).body as {
          status: string;
          errors: unknown[];
        };
        if (plan.status !== 'running') return plan;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the ${operation} plan ${id} did not end`);
    },
    async results(contractId) {
      const { status, body } = await call(
        'GET',
        `/v1/computational-governance/data-contracts/${encodeURIComponent(contractId)}/evaluation-results?limit=100`,
      );
      if (status !== 200) throw new Error(`results: ${status} ${JSON.stringify(body)}`);
      return (body as { data: Array<{ status: string; environment: string }> }).data;
    },
    async close() {
      await api.close();
    },
  };
}

/** Serves `fetch` on a free port of 127.0.0.1; `close` stops it. */
export async function serveOnFreePort(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const { serve } = await import('@hono/node-server');
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      }),
    );
  });
}
