import { defineConfig } from 'vitest/config';

// One root run over every package and app; each project has its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tests'],
  },
});
