import { ServiceMetrics } from '@dcg/http-kit';
import { inProcessKgApp } from './in-process-app';

const KEY = 'metrics-scrape-key-0123456789';

/**
 * A real `/metrics` scrape of kg-api (process metrics included) after an upload, a SPARQL query
 * and a refused request, so that every family has samples where it can.
 *
 * @example
 * const text = await kgApiScrape();
 */
export async function kgApiScrape(): Promise<string> {
  const kg = await inProcessKgApp(
    '<urn:a> <urn:b> "c" .',
    { auth: { apiKeys: [{ name: 'ci', key: KEY }] } },
    new ServiceMetrics({ service: 'kg-api' }),
  );
  try {
    const headers = { authorization: `Bearer ${KEY}` };
    await kg.app.request('/v1/sources/vocab/graph', {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'text/turtle' },
      body: '<urn:x> <urn:y> "z" .',
    });
    await kg.app.request(`/v1/graph/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`, {
      headers,
    });
    await kg.app.request('/v1/sources/vocab/ingest', { method: 'POST', headers });
    const response = await kg.app.request('/metrics', { headers });
    if (response.status !== 200) throw new Error(`kg-api /metrics answered ${response.status}`);
    return await response.text();
  } finally {
    await kg.close();
  }
}
