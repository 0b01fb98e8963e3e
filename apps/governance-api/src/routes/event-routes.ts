import type { Governance } from '@dcg/governance';
import { problemResponse, type ServiceLifecycle } from '@dcg/http-kit';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { GovernanceEnv } from '../app-env';
import type { Guards } from '../auth';
import { guardedProblems } from './guarded-problems';
import { bearerSecurity } from './openapi-schemas';

const SystemEventSchema = z
  .object({ systemId: z.string(), environment: z.string(), planId: z.string() })
  .meta({ id: 'SystemEvent' });

/**
 * `GET /v1/marketplace/events`: the deploy/undeploy events as Server-Sent Events, so other
 * processes (the MCP server rebuilding its embeddings) can subscribe. Events carry ids only; the
 * deployed descriptor (with private info) stays behind the API. Each key may hold
 * `maxStreamsPerKey` streams at once (one more is 429); streams end when the service stops.
 *
 * @example
 * mountEventRoutes(app, { governance, guards, maxStreamsPerKey: 5, lifecycle });
 */
export function mountEventRoutes(
  app: OpenAPIHono<GovernanceEnv>,
  deps: {
    governance: Governance;
    guards: Guards;
    keepAliveMs?: number;
    maxStreamsPerKey?: number | undefined;
    lifecycle?: ServiceLifecycle | undefined;
  },
): void {
  const { governance, guards } = deps;
  const maxStreamsPerKey = deps.maxStreamsPerKey ?? 5;
  // Open streams per key name, in this process.
  const openStreams = new Map<string, number>();
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/v1/marketplace/events',
    operationId: 'streamMarketplaceEvents',
    tags: ['marketplace'],
    summary:
      'Server-Sent Events `system.deployed` and `system.undeployed` (data: { systemId, environment, planId }), after the marketplace instance changed',
    security: bearerSecurity,
    responses: {
      200: {
        description: 'An event stream',
        content: { 'text/event-stream': { schema: SystemEventSchema } },
      },
      ...guardedProblems({
        429: 'The key already holds `limits.maxEventStreamsPerKey` streams',
      }),
    },
  });
  app.get('/v1/marketplace/events', guards.authenticate, (c) => {
    const holder = c.get('principal')?.name ?? 'anonymous';
    const open = openStreams.get(holder) ?? 0;
    if (open >= maxStreamsPerKey) {
      return problemResponse(
        {
          status: 429,
          title: 'Too Many Requests',
          detail: `This key already holds ${open} event streams, the most allowed (limits.maxEventStreamsPerKey); close one first`,
          instance: c.req.path,
          code: 'TOO_MANY_STREAMS',
        },
        { 'Retry-After': '15' },
      );
    }
    openStreams.set(holder, open + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (openStreams.get(holder) ?? 1) - 1;
      if (left <= 0) openStreams.delete(holder);
      else openStreams.set(holder, left);
    };
    return streamSSE(c, async (stream) => {
      const queue: Array<{ event: string; data: string }> = [];
      let wake: (() => void) | undefined;
      const push = (
        event: string,
        payload: { systemId: string; environment: string; planId: string },
      ) => {
        queue.push({
          event,
          data: JSON.stringify({
            systemId: payload.systemId,
            environment: payload.environment,
            planId: payload.planId,
          }),
        });
        wake?.();
      };
      const offs = [
        governance.events.on('system.deployed', (e) => push('system.deployed', e)),
        governance.events.on('system.undeployed', (e) => push('system.undeployed', e)),
      ];
      let open = true;
      const end = () => {
        open = false;
        wake?.();
      };
      stream.onAbort(end);
      deps.lifecycle?.signal.addEventListener('abort', end, { once: true });
      if (deps.lifecycle?.draining) open = false;
      try {
        await stream.writeSSE({ event: 'ready', data: '{}' });
        while (open) {
          const next = queue.shift();
          if (next) {
            await stream.writeSSE(next);
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            // A comment line now and then keeps proxies from closing an idle stream.
            setTimeout(resolve, deps.keepAliveMs ?? 15_000).unref?.();
          });
          wake = undefined;
          if (open && queue.length === 0) await stream.write(': keep-alive\n\n');
        }
      } finally {
        for (const off of offs) off();
        deps.lifecycle?.signal.removeEventListener('abort', end);
        release();
      }
    });
  });
}
