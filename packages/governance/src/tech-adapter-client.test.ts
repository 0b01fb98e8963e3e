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
      if (GovernanceError.is(error)) return error;
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
    expect(GovernanceError.is(unreachable) && unreachable.code).toBe('adapter_failure');
  });
});
