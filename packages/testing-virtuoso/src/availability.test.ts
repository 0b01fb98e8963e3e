import { afterEach, describe, expect, it, vi } from 'vitest';
import { isVirtuosoAvailable } from './availability';

const missing = { virtuosoBin: '/nonexistent/virtuoso-t' };

describe('isVirtuosoAvailable', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('reports a missing program so a suite can skip visibly', async () => {
    vi.stubEnv('DCG_REQUIRE_VIRTUOSO', '');
    vi.stubEnv('CI', '');
    expect(await isVirtuosoAvailable(missing)).toEqual({
      available: false,
      reason: expect.stringContaining('/nonexistent/virtuoso-t not found'),
    });
  });

  it('fails instead of skipping when the run requires Virtuoso', async () => {
    vi.stubEnv('DCG_REQUIRE_VIRTUOSO', '1');
    await expect(isVirtuosoAvailable(missing)).rejects.toThrow(/Virtuoso is required here/);
    vi.stubEnv('DCG_REQUIRE_VIRTUOSO', '');
    vi.stubEnv('CI', 'true');
    await expect(isVirtuosoAvailable(missing)).rejects.toThrow(/Virtuoso is required here/);
  });
});
