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

/**
 * URL of the page of one deployed system (latest deployment without an environment), optionally
 * at one of its components.
 *
 * @example
 * systemHref('urn:dmb:dp:finance:orders:0', 'production', 'urn:dmb:cmp:finance:orders:0:loader');
 */
export function systemHref(systemId: string, environment?: string, componentId?: string): string {
  const base = `/marketplace/systems/${encodeURIComponent(systemId)}`;
  const query = environment === undefined ? '' : `?environment=${encodeURIComponent(environment)}`;
  return `${base}${query}${componentId === undefined ? '' : `#${encodeURIComponent(componentId)}`}`;
}

/**
 * URL of the page of one policy.
 *
 * @example
 * policyHref('policy-dataproduct-guardian'); // '/marketplace/policies/policy-dataproduct-guardian'
 */
export function policyHref(policyId: string): string {
  return `/marketplace/policies/${encodeURIComponent(policyId)}`;
}

/**
 * URL of the result history of a data contract in one environment (1-based page).
 *
 * @example
 * historyHref('urn:dmb:cmp:finance:orders:0:port', 'production', 2);
 */
export function historyHref(contractId: string, environment: string, page = 1): string {
  const base = `${contractHref(contractId)}/history?environment=${encodeURIComponent(environment)}`;
  return page > 1 ? `${base}&page=${page}` : base;
}

/**
 * URL of the page of one result of a data contract (its records), by the result's number.
 *
 * @example
 * resultHref('urn:dmb:cmp:finance:orders:0:port', 'production', 42);
 */
export function resultHref(contractId: string, environment: string, seq: number): string {
  return `${contractHref(contractId)}/results/${seq}?environment=${encodeURIComponent(environment)}`;
}
