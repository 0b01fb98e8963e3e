import { cp } from 'node:fs/promises';
import { appBuild } from '../../tsup.presets';

export default appBuild({
  // demo.ts reads ./demo/demo-vocabulary.ttl beside itself.
  onSuccess: async () => {
    await cp('src/demo', 'dist/demo', { recursive: true });
  },
});
