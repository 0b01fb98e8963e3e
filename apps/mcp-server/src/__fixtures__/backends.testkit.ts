// The same real governance-api and kg-api (demo data, in process) that @dcg/mcp-tools tests
// against: one fixture for both, so the two suites cannot drift apart.
export {
  type Backends,
  DEMO,
  GOVERNANCE_KEY,
  startBackends,
} from '../../../../packages/mcp-tools/src/__fixtures__/backends.testkit';
