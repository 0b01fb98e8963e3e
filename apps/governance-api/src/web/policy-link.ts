import type { Policy } from '@dcg/governance';
import { policyHref } from './marketplace-links';
import { type Markup, markup } from './markup';

/**
 * A policy by name, linking to its page; its id when the policy no longer exists.
 *
 * @example
 * const link = policyLink('p1', new Map([['p1', policy]]));
 */
export function policyLink(policyId: string, policies: ReadonlyMap<string, Policy>): Markup {
  const policy = policies.get(policyId);
  return policy === undefined
    ? markup`<code>${policyId}</code> <span class="muted">(no such policy any more)</span>`
    : markup`<a href="${policyHref(policyId)}">${policy.name}</a>`;
}
