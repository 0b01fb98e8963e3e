import type { ContractLocation } from './contract-locations';
import { contractHref, marketplaceHref, systemHref } from './marketplace-links';
import { type Markup, markup } from './markup';
import { pageLayout } from './page-layout';

/** Why the contract page cannot be shown as asked. */
export type ContractHelpReason =
  /** No `?environment=` was given. */
  | { kind: 'environment-required' }
  /** Nothing is known of this contract in the asked environment. */
  | { kind: 'not-found'; environment: string }
  /** A deployed component that is not a data contract: its page is the system's. */
  | {
      kind: 'not-a-data-contract';
      environment: string;
      instance: { systemId: string; name: string };
      component: { id: string; name?: string | undefined; kind?: string | undefined };
    };

/**
 * The page answered instead of a contract page when the environment is missing (400) or the
 * contract is unknown in it (404): it says what went wrong and links to every environment the
 * contract is deployed in.
 *
 * @example
 * const page = contractHelpPage('urn:dmb:cmp:x', { kind: 'not-found', environment: 'prod' }, locations);
 */
export function contractHelpPage(
  contractId: string,
  reason: ContractHelpReason,
  locations: ContractLocation[],
): Markup {
  if (reason.kind === 'not-a-data-contract') {
    const name = reason.component.name ?? reason.component.id;
    const main = markup`<h1>${name} is not a data contract</h1>
<section class="card" aria-label="What happened">
<p>The component <code>${contractId}</code>${reason.component.kind ? ` (${reason.component.kind})` : ''} of <strong>${reason.instance.name}</strong> in the environment <strong>${reason.environment}</strong> is not a data contract, so it has no compliance status.</p>
<p><a href="${systemHref(reason.instance.systemId, reason.environment, contractId)}">See ${name} on the page of ${reason.instance.name}</a></p>
<p><a href="${marketplaceHref()}">Back to the marketplace</a></p>
</section>`;
    return pageLayout({
      title: `${name} is not a data contract`,
      breadcrumbs: [{ label: 'Marketplace', href: marketplaceHref() }, { label: contractId }],
      main,
    });
  }
  const heading =
    reason.kind === 'environment-required'
      ? 'Choose an environment'
      : `Data contract not found in environment ${reason.environment}`;
  const explanation =
    reason.kind === 'environment-required'
      ? markup`<p>The compliance of a data contract depends on the environment it is deployed in. Add <code>?environment=</code> to the address, or pick an environment below.</p>`
      : markup`<p>The marketplace knows no data contract <code>${contractId}</code> in the environment <strong>${reason.environment}</strong>: no system deployed there contains it and no guardian has reported on it there.</p>`;
  const choices =
    locations.length > 0
      ? markup`<h2 id="locations-heading">Where this data contract is deployed</h2>
<ul aria-labelledby="locations-heading">${locations.map(
          (location) =>
            markup`<li><a href="${contractHref(contractId, location.environment)}">${location.environment}</a>: ${location.component.name ?? location.component.id} in ${location.instance.name}</li>`,
        )}</ul>`
      : markup`<p>It is not deployed in any environment. Check the identifier, or find the contract in the <a href="${marketplaceHref()}">list of instances</a>.</p>`;
  const main = markup`<h1>${heading}</h1>
<section class="card" aria-label="What happened">
<p>Data contract <code>${contractId}</code></p>
${explanation}
${choices}
<p><a href="${marketplaceHref()}">Back to the marketplace</a></p>
</section>`;
  return pageLayout({
    title: heading,
    breadcrumbs: [{ label: 'Marketplace', href: marketplaceHref() }, { label: contractId }],
    main,
  });
}
