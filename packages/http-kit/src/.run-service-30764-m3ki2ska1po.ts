
import { Hono } from 'hono';
import { portFromEnv, runService, startHttpServer } from './index';
await runService({
  name: 'demo',
  start: async () => {
    const app = new Hono().get('/', (c) => c.text('hi'));
    const server = await startHttpServer(app, { port: portFromEnv(0) });
    return { service: server, listening: { docs: server.url + '/docs' } };
  },
});
