import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, parseConfig, resolveApiKeys, type ServiceMetrics } from '@dcg/http-kit';
import { KnowledgeBase, SourceIngestion } from '@dcg/knowledge-graph';
import { FileGraphPersistence } from '@dcg/knowledge-graph/node';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { Parser } from 'n3';
import { buildKgApp } from '../app';
import type { KgEnv } from '../app-env';
import { KgApiConfigSchema } from '../config';

/** A kg-api app (for `app.request()`) over a real knowledge base in a temporary folder. */
export interface InProcessKgApp {
  app: OpenAPIHono<KgEnv>;
  close(): Promise<void>;
}

/**
 * Builds the kg-api app in process, with one source `vocab` holding `turtle`, no server.
 *
 * @example
 * const { app, close } = await inProcessKgApp('<urn:a> <urn:b> "c" .');
 */
export async function inProcessKgApp(
  turtle: string,
  /** More configuration (keys, limits), merged over the one source. */
  overrides: Record<string, unknown> = {},
  /** A registry of the caller's (default: one of the app's own). */
  metrics?: ServiceMetrics,
): Promise<InProcessKgApp> {
  const dir = await mkdtemp(join(tmpdir(), 'kg-app-'));
  const logger = createLogger('test', { level: 'silent' });
  const config = parseConfig(
    KgApiConfigSchema,
    {
      ...overrides,
      sources: [
        {
          id: 'vocab',
          name: 'vocab',
          modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
        },
      ],
    },
    'test configuration',
  );
  const persistence = new FileGraphPersistence(dir);
  const kb = await KnowledgeBase.open({
    sources: config.sources,
    search: config.search,
    persistence,
    maxGraphBytes: config.ingestion.maxGraphBytes,
  });
  await kb.replaceGraph('vocab', new Parser().parse(turtle));
  const rdfParse = {
    maxJsonDepth: config.ingestion.maxJsonLdDepth,
    maxXmlDepth: config.ingestion.maxRdfXmlDepth,
  };
  const app = buildKgApp({
    ...(metrics ? { metrics } : {}),
    config,
    kb,
    apiKeys: resolveApiKeys(config.auth.apiKeys, { env: {} }).keys,
    ingestion: new SourceIngestion(
      kb,
      { timeoutMs: 1_000, maxBytes: config.ingestion.maxUploadBytes, parse: rdfParse },
      logger,
    ),
    rdfParse,
    logger,
    storageWritable: () => persistence.writable(),
  });
  return { app, close: () => rm(dir, { recursive: true, force: true }) };
}
