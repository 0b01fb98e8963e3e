import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseDescriptorYaml } from '@dcg/contract-schema';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A real tech adapter (API v2.2.0) for the kill -9 test: it validates and provisions every
 * component at once, except the ones in `hang`, whose provisioning answers 202 with a token that
 * stays RUNNING for ever. `calls` records `operation componentId` in order.
 */
export async function startHangingTechAdapter(hang: readonly string[]): Promise<{
  url: string;
  calls: string[];
  close(): Promise<void>;
}> {
  const calls: string[] = [];
  const app = new Hono();
  const componentOf = async (c: { req: { json(): Promise<unknown> } }) => {
    const body = await c.req.json().catch(() => null);
    if (!isRecord(body) || typeof body.descriptor !== 'string') return '';
    const descriptor = parseDescriptorYaml(body.descriptor);
    return isRecord(descriptor) ? String(descriptor.componentIdToProvision) : '';
  };
  app.post('/v1/validate', async (c) => {
    calls.push(`validate ${await componentOf(c)}`);
    return c.json({ valid: true });
  });
  for (const operation of ['provision', 'unprovision'] as const) {
    app.post(`/v1/${operation}`, async (c) => {
      const id = await componentOf(c);
      calls.push(`${operation} ${id}`);
      if (operation === 'provision' && hang.includes(id)) return c.json('hanging-token', 202);
      return c.json({ status: 'COMPLETED', result: `${operation} ${id}`, info: null });
    });
    app.get(`/v1/${operation}/:token/status`, (c) => c.json({ status: 'RUNNING', result: '' }));
  }
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        (server as Server).closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
