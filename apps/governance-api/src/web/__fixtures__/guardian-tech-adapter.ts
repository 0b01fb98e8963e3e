import { parseDescriptorYaml } from '@dcg/contract-schema';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

interface ProvisionedComponent {
  componentId: string;
  info: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A small but real tech adapter (API v2.2.0) for the browser tests: it answers provision and
 * unprovision synchronously and gives back the input `info` merged with public information (a
 * note, a dashboard link, nested connection details), as a well-behaved guardian adapter must
 * (the policy id stays in `privateInfo`).
 */
export async function startGuardianTechAdapter(): Promise<{
  url: string;
  provisioned: ProvisionedComponent[];
  close(): Promise<void>;
}> {
  const provisioned: ProvisionedComponent[] = [];
  const app = new Hono();
  const handle = (action: 'provision' | 'unprovision') =>
    app.post(`/v1/${action}`, async (c) => {
      const request: unknown = await c.req.json();
      if (!isRecord(request) || typeof request.descriptor !== 'string') {
        return c.json({ errors: ['descriptor must be a YAML string'] }, 400);
      }
      const descriptor = parseDescriptorYaml(request.descriptor);
      if (!isRecord(descriptor) || !isRecord(descriptor.dataProduct)) {
        return c.json({ errors: ['expected a COMPONENT_DESCRIPTOR'] }, 400);
      }
      const componentId = descriptor.componentIdToProvision;
      const components = Array.isArray(descriptor.dataProduct.components)
        ? descriptor.dataProduct.components
        : [];
      const component = components.find(
        (candidate: unknown) => isRecord(candidate) && candidate.id === componentId,
      );
      const inputInfo = isRecord(component) && isRecord(component.info) ? component.info : {};
      provisioned.push({ componentId: String(componentId), info: inputInfo });
      const publicInfo = isRecord(inputInfo.publicInfo) ? inputInfo.publicInfo : {};
      return c.json({
        status: 'COMPLETED',
        result: `${action} done`,
        info: {
          ...inputInfo,
          publicInfo: {
            ...publicInfo,
            monitoring: { type: 'string', label: 'Monitoring', value: 'every hour' },
            dashboard: {
              type: 'link',
              label: 'Dashboard',
              value: 'Open the dashboard',
              href: `https://dashboards.example/d/${encodeURIComponent(String(componentId))}`,
            },
            connection: { host: 'warehouse.internal', port: 5432, schemas: ['sales', 'archive'] },
          },
          privateInfo: isRecord(inputInfo.privateInfo) ? inputInfo.privateInfo : {},
        },
      });
    });
  handle('provision');
  handle('unprovision');
  app.post('/v1/validate', (c) => c.json({ valid: true }));

  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    provisioned,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
