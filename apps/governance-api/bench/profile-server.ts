// Profiling helper: starts governance-api on SQLite with a bench key and the demo (a guardian
// deployed in production guarding urn:dmb:cmp:finance:orders:0:orders-port), prints the URL and
// the guardian's policy id, and stops after PROFILE_SECONDS so `node --cpu-prof` writes its
// profile. Load it from another process (autocannon), so the profile shows the server alone:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx --conditions=@dcg/source bench/profile-server.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { startGovernanceApi } from '../src/server';

const KEY = 'bench-admin-key-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'governance-profile-'));
const api = await startGovernanceApi({
  config: {
    auth: { apiKeys: [{ name: 'bench', key: KEY, role: 'platform-admin' }] },
    // The limiter runs but never refuses: the profile is one client.
    rateLimit: {
      anonymous: { requestsPerSecond: 1e6, burst: 1e6 },
      authenticated: { requestsPerSecond: 1e6, burst: 1e6 },
    },
  },
  dataDir: dir,
  port: Number(process.env.PORT ?? 0),
  logger: createLogger('profile', { level: 'silent' }),
  demo: true,
});
const guardian = await api.governance.templates.get('urn:dmb:itm:dcg-demo-guardian:1');
const policyId = guardian?.policies[0]?.policyId;
console.log(JSON.stringify({ msg: 'listening', url: api.url, policyId }));
const stop = async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
setTimeout(stop, Number(process.env.PROFILE_SECONDS ?? 15) * 1000);
