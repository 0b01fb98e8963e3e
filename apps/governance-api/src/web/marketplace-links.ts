/**
 * URL of the list page, optionally filtered by environment.
 *
 * @example
 * marketplaceHref('production'); // '/marketplace?environment=production'
 */
export function marketplaceHref(environment?: string): string {
  return environment === undefined
    ? '/marketplace'
    : `/marketplace?environment=${encodeURIComponent(environment)}`;
}

/**
 * URL of the page of one data contract in one environment.
 *
 * @example
 * contractHref('urn:dmb:cmp:finance:orders:0:port', 'production');
 */
export function contractHref(contractId: string, environment?: string): string {
  const base = `/marketplace/data-contracts/${encodeURIComponent(contractId)}`;
  return environment === undefined
    ? base
    : `${base}?environment=${encodeURIComponent(environment)}`;
}

/**
 * URL of the JSON compliance API for the same contract and environment.
 *
 * @example
 * complianceApiHref('urn:dmb:cmp:finance:orders:0:port', 'production');
 */
export function complianceApiHref(contractId: string, environment: string): string {
  return `/v1/marketplace/data-contracts/${encodeURIComponent(contractId)}/compliance?environment=${encodeURIComponent(environment)}`;
}

/**
 * The fragment id of an instance card on the list page: a system deployed in several environments
 * has one card per environment.
 *
 * @example
 * instanceAnchor('urn:dmb:dp:finance:orders:0', 'production'); // 'urn:dmb:dp:finance:orders:0@production'
 */
export function instanceAnchor(systemId: string, environment: string): string {
  return `${systemId}@${environment}`;
}
