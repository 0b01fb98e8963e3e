import {
  type ComponentDescriptor,
  ComponentProvisioningDescriptorSchema,
  mergeProvisioningInfo,
  ProvisioningRequestSchema,
  safeParseDescriptorYaml,
  toValidationIssues,
} from '@dcg/contract-schema';
import { Hono } from 'hono';

/** Base path of the built-in demo tech adapter. */
export const DEMO_ADAPTER_PATH = '/demo/tech-adapter';

/**
 * A tech adapter (API v2.2.0, synchronous) served by the app itself in demo mode, so the demo
 * system is deployed through the real coordinator. It keeps the input `info` and adds public
 * info, as a well-behaved guardian adapter does; `/v1/validate` accepts every well-formed request.
 *
 * @example
 * app.route('/', demoTechAdapter());
 */
/** The component a provisioning request names, or the errors that make the request invalid. */
function readComponent(
  body: unknown,
): { component: ComponentDescriptor; errors?: undefined } | { errors: string[] } {
  const request = ProvisioningRequestSchema.safeParse(body);
  if (!request.success) {
    return {
      errors: toValidationIssues(request.error.issues).map((i) => `${i.path}: ${i.message}`),
    };
  }
  const parsed = safeParseDescriptorYaml(request.data.descriptor);
  if (!parsed.success) return { errors: parsed.issues.map((issue) => issue.message) };
  const descriptor = ComponentProvisioningDescriptorSchema.safeParse(parsed.data);
  if (!descriptor.success) return { errors: ['descriptor: not a COMPONENT_DESCRIPTOR'] };
  const component = descriptor.data.dataProduct.components?.find(
    (x) => x.id === descriptor.data.componentIdToProvision,
  );
  if (!component) return { errors: ['componentIdToProvision: no such component'] };
  return { component };
}

export function demoTechAdapter(): Hono {
  const app = new Hono().basePath(DEMO_ADAPTER_PATH);
  app.post('/v1/validate', async (c) => {
    const read = readComponent(await c.req.json().catch(() => null));
    return c.json(read.errors ? { valid: false, error: { errors: read.errors } } : { valid: true });
  });
  for (const operation of ['provision', 'unprovision'] as const) {
    app.post(`/v1/${operation}`, async (c) => {
      const read = readComponent(await c.req.json().catch(() => null));
      if (read.errors) return c.json({ errors: read.errors }, 400);
      const { component } = read;
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
