import {
  ComponentProvisioningDescriptorSchema,
  mergeProvisioningInfo,
  ProvisioningRequestSchema,
  parseDescriptorYaml,
  toValidationIssues,
} from '@dcg/contract-schema';
import { Hono } from 'hono';

/** Base path of the built-in demo tech adapter. */
export const DEMO_ADAPTER_PATH = '/demo/tech-adapter';

/**
 * A tech adapter (API v2.2.0, synchronous) served by the app itself in demo mode, so the demo
 * system is deployed through the real coordinator. It keeps the input `info` and adds public
 * info, as a well-behaved guardian adapter does.
 *
 * @example
 * app.route('/', demoTechAdapter());
 */
export function demoTechAdapter(): Hono {
  const app = new Hono().basePath(DEMO_ADAPTER_PATH);
  for (const operation of ['provision', 'unprovision'] as const) {
    app.post(`/v1/${operation}`, async (c) => {
      const request = ProvisioningRequestSchema.safeParse(await c.req.json().catch(() => null));
      if (!request.success) {
        return c.json(
          {
            errors: toValidationIssues(request.error.issues).map((i) => `${i.path}: ${i.message}`),
          },
          400,
        );
      }
      let parsed: unknown;
      try {
        parsed = parseDescriptorYaml(request.data.descriptor);
      } catch (error) {
        return c.json({ errors: [(error as Error).message] }, 400);
      }
      const descriptor = ComponentProvisioningDescriptorSchema.safeParse(parsed);
      if (!descriptor.success)
        return c.json({ errors: ['descriptor: not a COMPONENT_DESCRIPTOR'] }, 400);
      const component = descriptor.data.dataProduct.components?.find(
        (x) => x.id === descriptor.data.componentIdToProvision,
      );
      if (!component) return c.json({ errors: ['componentIdToProvision: no such component'] }, 400);
      const merged = mergeProvisioningInfo(component.info, {
        publicInfo: {
          provisionedBy: { type: 'string', label: 'Provisioned by', value: 'dcg demo adapter' },
        },
        privateInfo: {},
      });
      return c.json({
        status: 'COMPLETED',
        result: `${operation} of ${component.id} done`,
        info: operation === 'provision' ? merged : null,
        logs: [
          {
            timestamp: new Date().toISOString(),
            level: 'INFO',
            message: `${operation} ${component.id}`,
          },
        ],
      });
    });
  }
  return app;
}
