import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from './config';
import { createLogger } from './logger';
import { ServiceStartup } from './service-startup';

const silent = createLogger('test', { level: 'silent' });

describe('ServiceStartup', () => {
  it('checks the configuration and names a bad key', () => {
    const schema = z.strictObject({ port: z.number().int().default(8080) });
    const good = new ServiceStartup('demo', { dataDir: '.', config: {}, logger: silent });
    expect(good.config(schema)).toEqual({ port: 8080 });
    const bad = new ServiceStartup('demo', { dataDir: '.', config: { prot: 1 }, logger: silent });
    expect(() => bad.config(schema)).toThrow(ConfigError);
    expect(() => bad.config(schema)).toThrow(/demo configuration[\s\S]*prot/);
  });

  it('stops the server before what was opened earlier or later, then the rest last first', async () => {
    const startup = new ServiceStartup('demo', { dataDir: '.', logger: silent, env: {} });
    const closed: string[] = [];
    startup.cleanup.defer(() => closed.push('store'));
    const app = new Hono().get('/', (c) => c.text('ok'));
    const server = await startup.listen(
      { fetch: (request: Request) => app.fetch(request) },
      { shutdownTimeoutMs: 1000 },
    );
    startup.cleanup.defer(async () => {
      // The server no longer answers when what was built after it closes.
      await expect(fetch(server.url)).rejects.toThrow();
      closed.push('tools');
    });
    expect(await (await fetch(server.url)).text()).toBe('ok');
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await startup.close();
    expect(closed).toEqual(['tools', 'store']);
    expect(startup.lifecycle.draining).toBe(true);
  });

  it('gives no shared limits without a pool: each instance counts in its own memory', async () => {
    const startup = new ServiceStartup('demo', { dataDir: '.', logger: silent });
    await expect(startup.sharedLimits(undefined, { schema: 'x', timeoutMs: 10 })).resolves.toBe(
      undefined,
    );
  });

  it('tells production from development by NODE_ENV', () => {
    const of = (NODE_ENV: string | undefined) =>
      new ServiceStartup('demo', { dataDir: '.', logger: silent, env: { NODE_ENV } }).production;
    expect(of('production')).toBe(true);
    expect(of('development')).toBe(false);
    expect(of('test')).toBe(false);
  });
});
