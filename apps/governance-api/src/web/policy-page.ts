import type { Policy } from '@dcg/governance';
import { formatTimestamp } from './format-timestamp';
import { marketplaceHref, policyHref } from './marketplace-links';
import { type Markup, markup } from './markup';
import { pageLayout } from './page-layout';

const TRIGGER_WORDS: Readonly<Record<Policy['trigger'], string>> = {
  active: 'active (checked during deployment)',
  passive: 'passive (evaluated outside deployment, as guardians do)',
};

/**
 * The page of one computational governance policy: its name, description and facts.
 *
 * @example
 * const page = policyPage(await governance.policies.get('p1'));
 */
export function policyPage(policy: Policy): Markup {
  const main = markup`<h1>Policy ${policy.name}</h1>
${policy.description ? markup`<p class="policy-description">${policy.description}</p>` : ''}
<dl class="facts">
<dt>Policy</dt><dd><code>${policy.id}</code></dd>
<dt>Resource type</dt><dd>${policy.resourceType}</dd>
<dt>Trigger</dt><dd>${TRIGGER_WORDS[policy.trigger]}</dd>
<dt>Status</dt><dd>${policy.status}</dd>
<dt>Environment</dt><dd>${policy.environment ?? markup`<span class="muted">every environment</span>`}</dd>
${policy.templateId ? markup`<dt>Created by template</dt><dd><code>${policy.templateId}</code></dd>` : ''}
<dt>Updated</dt><dd>${formatTimestamp(policy.updatedAt)}</dd>
</dl>`;
  return pageLayout({
    title: `Policy ${policy.name}`,
    breadcrumbs: [
      { label: 'Marketplace', href: marketplaceHref() },
      { label: policy.name, href: policyHref(policy.id) },
    ],
    main,
  });
}
