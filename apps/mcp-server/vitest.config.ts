import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared';

// Some tests spawn mcp-server processes (kill -9, CLI) and start Virtuoso: on a busy CI machine they
// need more than the shared 30 s.
export default mergeConfig(
  sharedConfig,
  defineProject({ test: { name: 'mcp-server', testTimeout: 120_000 } }),
);
