import type { GuardedContractView, Policy } from '@dcg/governance';
import { formatTimestamp } from './format-timestamp';
import { contractHref, marketplaceHref, policyHref, systemHref } from './marketplace-links';
import { type Markup, markup } from './markup';
import { pageLayout } from './page-layout';
import { statusBadge } from './status-badge';

/** The data contracts the policy guards, each with its system, environment and current state. */
function guardedSection(guarded: readonly GuardedContractView[]): Markup {
  return markup`<section aria-labelledby="guarded-heading">
<h2 id="guarded-heading">Data contracts it guards</h2>
${
  guarded.length === 0
    ? markup`<p class="muted">No deployed guardian guards a data contract under this policy. A guardian component deployed with a template that names this policy for the system's resource type adds its data contracts here.</p>`
    : markup`<table><caption class="visually-hidden">Data contracts guarded under this policy</caption>
<thead><tr><th scope="col">Data contract</th><th scope="col">System</th><th scope="col">Environment</th><th scope="col">Status</th></tr></thead>
<tbody>${guarded.map(
        (row) =>
          markup`<tr><th scope="row"><a href="${contractHref(row.contractId, row.environment)}">${row.name ?? row.contractId}</a><div><code>${row.contractId}</code></div></th><td data-label="System"><a href="${systemHref(row.systemId, row.environment)}">${row.systemName}</a></td><td data-label="Environment">${row.environment}</td><td data-label="Status">${statusBadge(row.status)}</td></tr>`,
      )}</tbody></table>`
}
</section>`;
}

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
export function policyPage(policy: Policy, guarded: readonly GuardedContractView[] = []): Markup {
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
</dl>
<p class="muted"><a href="${policyHref(policy.id)}?format=json" type="application/json">This policy as JSON</a></p>
${guardedSection(guarded)}`;
  return pageLayout({
    title: `Policy ${policy.name}`,
    breadcrumbs: [
      { label: 'Marketplace', href: marketplaceHref() },
      { label: policy.name, href: policyHref(policy.id) },
    ],
    main,
    jsonHref: `${policyHref(policy.id)}?format=json`,
  });
}
