import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: { name: 'mcp-tools', globalSetup: ['./src/__fixtures__/backends.global-setup.ts'] },
  }),
);
