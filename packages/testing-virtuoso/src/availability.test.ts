import { afterEach, describe, expect, it, vi } from 'vitest';
import { isVirtuosoAvailable } from './availability';

const missing = { virtuosoBin: '/nonexistent/virtuoso-t' };

describe('isVirtuosoAvailable', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('reports a missing program so a suite can skip visibly', async () => {
    vi.stubEnv('DCG_REQUIRE_VIRTUOSO', undefined);
    vi.stubEnv('CI', undefined);
    expect(await isVirtuosoAvailable(missing)).toEqual({
      available: false,
      reason: expect.stringContaining('/nonexistent/virtuoso-t not found'),
    });
  });

  it.each([
    { DCG_REQUIRE_VIRTUOSO: '1', CI: undefined },
    { DCG_REQUIRE_VIRTUOSO: undefined, CI: 'true' },
  ])('fails instead of skipping when the run requires Virtuoso (%o)', async (env) => {
    vi.stubEnv('DCG_REQUIRE_VIRTUOSO', env.DCG_REQUIRE_VIRTUOSO);
    vi.stubEnv('CI', env.CI);
    await expect(isVirtuosoAvailable(missing)).rejects.toThrow(/Virtuoso is required here/);
  });
});
