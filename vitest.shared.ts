import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Settings every vitest project shares. Workspace packages resolve to their `src/` through the
 * `@dcg/source` export condition, so tests never wait for a build.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@dcg/source', ...defaultServerConditions] },
  ssr: { resolve: { conditions: ['@dcg/source', ...defaultServerConditions] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
