/** The key of governance-api in these tests (role reader). */
export const GOVERNANCE_KEY = 'mcp-tools-test-reader-key-0123';

/** The demo data of governance-api. */
export const DEMO = {
  environment: 'production',
  systemId: 'urn:dmb:dp:finance:orders:0',
  contracts: {
    compliant: 'urn:dmb:cmp:finance:orders:0:orders-port',
    violated: 'urn:dmb:cmp:finance:orders:0:invoices-port',
    unprocessable: 'urn:dmb:cmp:finance:orders:0:customers-port',
  },
  concept: 'https://dcg.example.org/vocab/governance/data-product',
} as const;
