import { stringifyDescriptorYaml } from '@dcg/contract-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdapterBehaviour, startTechAdapter } from './__fixtures__/tech-adapter-server';
import { GovernanceError } from './errors';
import { TechAdapterClient } from './tech-adapter-client';

const request = (componentId: string) => ({
  descriptorKind: 'COMPONENT_DESCRIPTOR' as const,
  descriptor: stringifyDescriptorYaml({
    dataProduct: {
      id: 'urn:dmb:dp:a:b:0',
      kind: 'dataproduct',
      components: [{ id: componentId, info: { privateInfo: { k: 1 } } }],
    },
    componentIdToProvision: componentId,
  }),
  removeData: false,
});

describe('TechAdapterClient against a real adapter over HTTP', () => {
  const behaviours: Record<string, AdapterBehaviour> = {
    sync: { kind: 'sync' },
    async: { kind: 'async', polls: 2 },
    plain: { kind: 'plain-text-token' },
    failed: { kind: 'failed', message: 'quota exceeded' },
    bad400: { kind: 'http-error', status: 400 },
    running: { kind: 'sync-running' },
    invalid: { kind: 'invalid-status' },
    pollError: { kind: 'poll-error' },
    emptyToken: { kind: 'empty-token' },
    infoNull: { kind: 'info-null' },
    infoAbsent: { kind: 'info-absent' },
    refused: { kind: 'validate-refuses', message: 'bucket name taken' },
    samePath: { kind: 'redirect', status: 308, location: '/redirected/v1/provision' },
    tooBig: { kind: 'huge', bytes: 64 * 1024 * 1024 },
  };
  let adapter: Awaited<ReturnType<typeof startTechAdapter>>;
  const client = new TechAdapterClient({
    pollIntervalMs: 5,
    pollTimeoutMs: 1000,
    requestTimeoutMs: 2000,
  });
  beforeAll(async () => {
    adapter = await startTechAdapter(behaviours);
  });
  afterAll(() => adapter.close());

  const failure = async (id: string) => {
    try {
      await client.provision(adapter.url, request(id));
    } catch (error) {
      if (GovernanceError.isInstance(error)) return error;
      throw error;
    }
    throw new Error('expected an adapter failure');
  };

  it('reads a synchronous answer with its info and logs', async () => {
    const outcome = await client.provision(`${adapter.url}/`, request('sync'));
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.info).toEqual({ publicInfo: {}, privateInfo: { k: 1 } });
    expect(outcome.logs[0]?.message).toBe('done sync');
    expect(adapter.received.at(-1)?.descriptor.componentIdToProvision).toBe('sync');
  });

  it('follows JSON and plain-text 202 tokens until the operation completes', async () => {
    expect((await client.provision(adapter.url, request('async'))).status).toBe('COMPLETED');
    expect((await client.unprovision(adapter.url, request('plain'))).status).toBe('COMPLETED');
    expect(adapter.received.at(-1)?.operation).toBe('unprovision');
  });

  it('tells null info from absent info', async () => {
    expect((await client.provision(adapter.url, request('infoNull'))).info).toBeNull();
    expect((await client.provision(adapter.url, request('infoAbsent'))).info).toBeUndefined();
  });

  it('reports FAILED with the adapter result as the error', async () => {
    const outcome = await client.provision(adapter.url, request('failed'));
    expect(outcome).toMatchObject({ status: 'FAILED', errors: ['quota exceeded'] });
  });

  it('turns bad answers into adapter failures that say what was wrong', async () => {
    expect((await failure('bad400')).message).toMatch(
      /answered 400: The descriptor was refused; bad descriptor/,
    );
    expect((await failure('running')).message).toMatch(/200 RUNNING without a token/);
    expect((await failure('invalid')).message).toMatch(/invalid ProvisioningStatus: \$\.status/);
    expect((await failure('pollError')).message).toMatch(/answered 500: status store unavailable/);
    expect((await failure('emptyToken')).message).toMatch(/202 without a token/);
    const unreachable = await client
      .provision('http://127.0.0.1:1', request('sync'))
      .catch((e: unknown) => e);
    expect(GovernanceError.isInstance(unreachable) && unreachable.code).toBe('adapter_failure');
  });

  it('asks /v1/validate and reads its verdict', async () => {
    expect(await client.validate(adapter.url, request('sync'))).toEqual({
      valid: true,
      errors: [],
    });
    expect(await client.validate(adapter.url, request('refused'))).toEqual({
      valid: false,
      errors: ['bucket name taken'],
    });
    expect(adapter.validated.slice(-2)).toEqual(['sync', 'refused']);
  });

  it('does not follow a redirect to another origin: the request never reaches it', async () => {
    const elsewhere = await startTechAdapter({}, '/elsewhere');
    try {
      const redirecting = await startTechAdapter({
        away: { kind: 'redirect', status: 307, location: `${elsewhere.url}/v1/provision` },
      });
      try {
        for (const options of [{}, { redirects: 'same-origin' as const }]) {
          const strict = new TechAdapterClient({ requestTimeoutMs: 2000, ...options });
          const error = await strict.provision(redirecting.url, request('away')).catch((e) => e);
          expect(GovernanceError.isInstance(error) && error.code).toBe('adapter_failure');
          expect((error as Error).message).toMatch(/answered 307 redirecting to .*not followed/);
        }
        expect(elsewhere.received).toHaveLength(0);
      } finally {
        await redirecting.close();
      }
    } finally {
      await elsewhere.close();
    }
  });

  it('follows a same-origin redirect only when configured', async () => {
    const refused = await failure('samePath');
    expect(refused.message).toMatch(/answered 308 .*redirects are not followed/);
    const sameOrigin = new TechAdapterClient({ requestTimeoutMs: 2000, redirects: 'same-origin' });
    const outcome = await sameOrigin.provision(adapter.url, request('samePath'));
    expect(outcome).toMatchObject({ status: 'COMPLETED', result: 'redirected' });
  });

  it('stops reading an answer longer than maxResponseBytes', async () => {
    const capped = new TechAdapterClient({ requestTimeoutMs: 5000, maxResponseBytes: 1024 * 1024 });
    const before = process.memoryUsage().rss;
    const error = await capped.provision(adapter.url, request('tooBig')).catch((e) => e);
    expect(GovernanceError.isInstance(error) && error.code).toBe('adapter_failure');
    expect((error as Error).message).toMatch(/answered more than 1048576 bytes/);
    // 64 MiB were on offer; far less was read.
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
  });
});
