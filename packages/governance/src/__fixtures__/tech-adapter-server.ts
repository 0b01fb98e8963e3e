import type { AddressInfo } from 'node:net';
import {
  type ComponentProvisioningDescriptor,
  ComponentProvisioningDescriptorSchema,
  ProvisioningRequestSchema,
  safeParseDescriptorYaml,
} from '@dcg/contract-schema';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/** How the test adapter answers for a component. */
export type AdapterBehaviour =
  | { kind: 'sync' }
  | { kind: 'async'; polls: number }
  | { kind: 'failed'; message: string }
  | { kind: 'http-error'; status: 400 | 500 }
  | { kind: 'info-merge'; publicInfo: Record<string, unknown> }
  | { kind: 'info-null' }
  | { kind: 'info-drop' }
  | { kind: 'info-absent' }
  | { kind: 'never-finishes' }
  | { kind: 'plain-text-token' }
  | { kind: 'sync-running' }
  | { kind: 'invalid-status' }
  | { kind: 'poll-error' }
  | { kind: 'empty-token' }
  /** Answers `info` exactly as it received it. */
  | { kind: 'info-echo' }
  /** `POST /v1/validate` answers `{ valid: false }` with this message; provisioning would work. */
  | { kind: 'validate-refuses'; message: string }
  /** Provisions, but unprovision answers FAILED. */
  | { kind: 'unprovision-fails' }
  /** Answers a redirect to `location` (absolute, or a path on this server). */
  | { kind: 'redirect'; status: 301 | 302 | 307 | 308; location: string }
  /** Streams a body of `bytes` bytes without a Content-Length. */
  | { kind: 'huge'; bytes: number };

/** A request the adapter received, with its YAML descriptor parsed. */
export interface ReceivedRequest {
  operation: 'provision' | 'unprovision';
  descriptor: ComponentProvisioningDescriptor;
  removeData: boolean;
}

/** A running test tech adapter: its URL and what it was sent. */
export interface TechAdapter {
  url: string;
  received: ReceivedRequest[];
  /** Component ids sent to `POST /v1/validate`, in order. */
  validated: string[];
  close: () => Promise<void>;
}

/**
 * A real HTTP tech adapter (API v2.2.0) for tests, under a base path like the reference adapters.
 * It validates requests as a real adapter would and answers per component as configured.
 */
export async function startTechAdapter(
  behaviours: Record<string, AdapterBehaviour> = {},
  basePath = '/datamesh.specificprovisioner',
): Promise<TechAdapter> {
  const received: ReceivedRequest[] = [];
  const validated: string[] = [];
  const tokens = new Map<string, { remaining: number; body: unknown }>();
  const app = new Hono().basePath(basePath);

  const completed = (descriptor: ComponentProvisioningDescriptor, behaviour: AdapterBehaviour) => {
    const component = descriptor.dataProduct.components?.find(
      (c) => c.id === descriptor.componentIdToProvision,
    );
    const input = (component?.info ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const base = {
      status: 'COMPLETED',
      result: 'ok',
      logs: [
        {
          timestamp: new Date().toISOString(),
          level: 'INFO',
          message: `done ${descriptor.componentIdToProvision}`,
        },
      ],
    };
    switch (behaviour.kind) {
      case 'info-merge':
        return {
          ...base,
          info: {
            publicInfo: { ...(input.publicInfo ?? {}), ...behaviour.publicInfo },
            privateInfo: { ...(input.privateInfo ?? {}), deployedBy: 'test-adapter' },
          },
        };
      case 'info-null':
        return { ...base, info: null };
      case 'info-drop':
        return { ...base, info: { publicInfo: { note: 'fresh' }, privateInfo: {} } };
      case 'info-absent':
        return base;
      case 'info-echo':
        return { ...base, info: component?.info };
      default:
        return { ...base, info: { publicInfo: {}, privateInfo: { ...(input.privateInfo ?? {}) } } };
    }
  };

  const readRequest = async (body: unknown) => {
    const parsed = ProvisioningRequestSchema.safeParse(body);
    if (!parsed.success || parsed.data.descriptorKind !== 'COMPONENT_DESCRIPTOR') return undefined;
    const document = safeParseDescriptorYaml(parsed.data.descriptor);
    if (!document.success) return undefined;
    const descriptor = ComponentProvisioningDescriptorSchema.safeParse(document.data);
    return descriptor.success
      ? { descriptor: descriptor.data, removeData: parsed.data.removeData }
      : undefined;
  };

  app.post('/v1/validate', async (c) => {
    const request = await readRequest(await c.req.json().catch(() => null));
    if (!request) return c.json({ valid: false, error: { errors: ['invalid descriptor'] } });
    const id = request.descriptor.componentIdToProvision;
    validated.push(id);
    const behaviour = behaviours[id] ?? { kind: 'sync' };
    if (behaviour.kind === 'validate-refuses') {
      return c.json({ valid: false, error: { errors: [behaviour.message] } });
    }
    return c.json({ valid: true });
  });

  app.get('/redirected/*', (c) => c.json({ status: 'COMPLETED', result: 'redirected' }));
  app.post('/redirected/*', (c) => c.json({ status: 'COMPLETED', result: 'redirected' }));

  for (const operation of ['provision', 'unprovision'] as const) {
    app.post(`/v1/${operation}`, async (c) => {
      const request = await readRequest(await c.req.json().catch(() => null));
      if (!request) return c.json({ errors: ['invalid provisioning request'] }, 400);
      const descriptor = { data: request.descriptor };
      received.push({ operation, descriptor: request.descriptor, removeData: request.removeData });
      const behaviour = behaviours[descriptor.data.componentIdToProvision] ?? { kind: 'sync' };
      switch (behaviour.kind) {
        case 'unprovision-fails':
          return operation === 'unprovision'
            ? c.json({ status: 'FAILED', result: 'cannot delete the bucket' })
            : c.json(completed(descriptor.data, behaviour));
        case 'redirect': {
          const location = behaviour.location.startsWith('/')
            ? `${new URL(c.req.url).origin}${basePath}${behaviour.location}`
            : behaviour.location;
          return c.body(null, behaviour.status, { location });
        }
        case 'huge': {
          const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
          let sent = 0;
          const stream = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (sent >= behaviour.bytes) {
                controller.close();
                return;
              }
              controller.enqueue(chunk);
              sent += chunk.byteLength;
            },
          });
          return c.body(stream, 200, { 'content-type': 'application/json' });
        }
        case 'failed':
          return c.json({ status: 'FAILED', result: behaviour.message });
        case 'http-error':
          return behaviour.status === 400
            ? c.json({ errors: ['bad descriptor'], userMessage: 'The descriptor was refused' }, 400)
            : c.json({ error: 'adapter crashed', userMessage: 'Internal adapter problem' }, 500);
        case 'sync-running':
          return c.json({ status: 'RUNNING', result: '' });
        case 'invalid-status':
          return c.json({ state: 'done' });
        case 'empty-token':
          return c.body(null, 202);
        case 'plain-text-token':
        case 'poll-error': {
          const token = crypto.randomUUID();
          tokens.set(token, {
            remaining: behaviour.kind === 'poll-error' ? -1 : 1,
            body: completed(descriptor.data, behaviour),
          });
          return c.text(token, 202);
        }
        case 'async':
        case 'never-finishes': {
          const token = crypto.randomUUID();
          tokens.set(token, {
            remaining: behaviour.kind === 'async' ? behaviour.polls : Number.POSITIVE_INFINITY,
            body: completed(descriptor.data, behaviour),
          });
          return c.json(token, 202);
        }
        default:
          return c.json(completed(descriptor.data, behaviour));
      }
    });
    app.get(`/v1/${operation}/:token/status`, (c) => {
      const entry = tokens.get(c.req.param('token'));
      if (!entry) return c.json({ errors: ['unknown token'] }, 400);
      if (entry.remaining < 0) return c.json({ error: 'status store unavailable' }, 500);
      if (entry.remaining > 0) {
        entry.remaining--;
        return c.json({ status: 'RUNNING', result: '' });
      }
      return c.json(entry.body);
    });
  }

  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    received,
    validated,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
