import { type PrometheusSample, parsePrometheusText } from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessKgApp, inProcessKgApp } from './__fixtures__/in-process-app';

const KEY = 'ingest-metrics-key-0123456789';

const value = (samples: PrometheusSample[], name: string, labels: Record<string, string>) =>
  samples.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;

describe('kg-api /metrics: ingests by source, mode and outcome, and the build', () => {
  let kg: InProcessKgApp;
  const call = (path: string, init: { method?: string; type?: string; body?: string } = {}) =>
    kg.app.request(path, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(init.type ? { 'content-type': init.type } : {}),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
  const scrape = async () => {
    const response = await call('/metrics');
    expect(response.status).toBe(200);
    return parsePrometheusText(await response.text());
  };

  beforeAll(async () => {
    kg = await inProcessKgApp('<urn:a> <urn:b> "c" .', {
      auth: { apiKeys: [{ name: 'ci', key: KEY }] },
    });
  });
  afterAll(() => kg?.close());

  it('counts uploads (both upload routes), refused uploads and failed pulls of configured sources only, with their duration', async () => {
    const turtle = '<urn:x> <urn:y> "z" .';
    const put = (path: string, body: string, type = 'text/turtle') =>
      call(path, { method: 'PUT', type, body });
    expect((await put('/v1/sources/vocab/graph', turtle)).status).toBe(200);
    expect((await put('/v1/graph/store?graph=urn%3Adcg%3Asource%3Avocab', turtle)).status).toBe(
      200,
    );
    expect((await put('/v1/sources/vocab/graph', '<urn:x> <urn:y> .')).status).toBe(400);
    // Unknown sources are 404s in the HTTP metrics, never a new series.
    expect((await put('/v1/sources/not-configured-123/graph', turtle)).status).toBe(404);
    // vocab has no baseUrl: the pull fails and counts under its error code.
    const pull = await call('/v1/sources/vocab/ingest', { method: 'POST' });
    expect(pull.status).toBe(409);

    const { samples, types } = await scrape();
    expect(types.get('kg_ingests_total')).toBe('counter');
    expect(types.get('kg_ingest_duration_seconds')).toBe('histogram');
    expect(
      value(samples, 'kg_ingests_total', { source: 'vocab', mode: 'upload', outcome: 'ok' }),
    ).toBe(2);
    expect(
      value(samples, 'kg_ingests_total', { source: 'vocab', mode: 'upload', outcome: 'rejected' }),
    ).toBe(1);
    const pulls = samples.filter((s) => s.name === 'kg_ingests_total' && s.labels.mode === 'pull');
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.labels.outcome).not.toBe('ok');
    expect(pulls[0]?.value).toBe(1);
    expect(samples.some((s) => s.labels.source === 'not-configured-123')).toBe(false);
    expect(
      value(samples, 'kg_ingest_duration_seconds_count', {
        source: 'vocab',
        mode: 'upload',
        outcome: 'rejected',
      }),
    ).toBe(1);
    expect(value(samples, 'kg_sparql_queries_running', {})).toBe(0);
    for (const reason of ['queue_full', 'deadline', 'aborted']) {
      expect(value(samples, 'kg_sparql_queries_refused_total', { reason })).toBe(0);
    }
    expect(value(samples, 'dcg_build_info', { service: 'kg-api', version: '0.1.0' })).toBe(1);
  });
});
