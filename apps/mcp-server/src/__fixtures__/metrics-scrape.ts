import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, ServiceMetrics } from '@dcg/http-kit';
import { startMcpServer } from '../server';

/**
 * A real `/metrics` scrape of mcp-server (process metrics, build info, HTTP and OAuth metrics)
 * on its demo configuration with the authorization server on, after one token request refused
 * (`invalid_client`), * so that every OAuth family has a series.
 *
 * @example
 * const text = await mcpServerScrape();
 */
export async function mcpServerScrape(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-metrics-scrape-'));
  const metrics = new ServiceMetrics({ service: 'mcp-server' });
  const server = await startMcpServer({
    dataDir: dir,
    demo: true,
    config: {
      governance: { baseUrl: 'http://127.0.0.1:9' },
      knowledgeGraph: { baseUrl: 'http://127.0.0.1:9' },
    },
    logger: createLogger('test', { level: 'silent' }),
    metrics,
  });
  try {
    await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=nope&client_id=nobody',
    });
    return await metrics.registry.metrics();
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
