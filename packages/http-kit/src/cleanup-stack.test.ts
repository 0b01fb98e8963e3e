import { describe, expect, it } from 'vitest';
import { CleanupStack } from './cleanup-stack';

describe('CleanupStack', () => {
  it('runs the steps last first, once each', async () => {
    const ran: string[] = [];
    const cleanup = new CleanupStack();
    cleanup.defer(() => ran.push('store'));
    cleanup.defer(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      ran.push('search');
    });
    cleanup.defer(() => ran.push('server'));
    await cleanup.run();
    await cleanup.run();
    expect(ran).toEqual(['server', 'search', 'store']);
  });

  it('unwinds what was opened when a later step fails, and passes its error on', async () => {
    const ran: string[] = [];
    const cleanup = new CleanupStack();
    cleanup.defer(() => ran.push('store'));
    await expect(cleanup.orUnwind(Promise.resolve(1))).resolves.toBe(1);
    expect(ran).toEqual([]);
    const failure = new Error('port in use');
    await expect(cleanup.orUnwind(Promise.reject(failure))).rejects.toBe(failure);
    expect(ran).toEqual(['store']);
  });

  it('runs the steps of deferFirst before every other, whenever they were added', async () => {
    const ran: string[] = [];
    const cleanup = new CleanupStack();
    cleanup.defer(() => ran.push('store'));
    // A server that listens before the rest is built (mcp-server) still stops first.
    cleanup.deferFirst(() => ran.push('server'));
    cleanup.defer(() => ran.push('oauth'));
    cleanup.defer(() => ran.push('tools'));
    await cleanup.run();
    await cleanup.run();
    expect(ran).toEqual(['server', 'tools', 'oauth', 'store']);
  });
});
