import type { ComplianceViewStatus, MarketplaceInstanceView } from '@dcg/governance';
import { formatTimestamp } from './format-timestamp';
import { contractHref, instanceAnchor, marketplaceHref } from './marketplace-links';
import { type Markup, markup, trusted } from './markup';
import { pageLayout } from './page-layout';
import { STATUS_LABELS, statusBadge } from './status-badge';

/** What the list page shows: the instances (already filtered) and every known environment. */
export interface InstancesPageModel {
  instances: MarketplaceInstanceView[];
  /** The `?environment=` filter, when one was given. */
  environment?: string;
  /** Every environment that has instances, for the filter and for help when a filter matches none. */
  environments: string[];
}

const STATUS_ORDER: ComplianceViewStatus[] = ['violated', 'unprocessable', 'unknown', 'compliant'];

// How a count of contracts in each state reads in a sentence ("2 violated, 1 without results yet").
const TALLY_WORDS: Readonly<Record<ComplianceViewStatus, string>> = {
  violated: 'violated',
  unprocessable: 'with results that cannot be processed',
  unknown: 'without results yet',
  compliant: 'compliant',
};

function contractStatus(
  component: MarketplaceInstanceView['components'][number],
): ComplianceViewStatus {
  return component.compliance?.status ?? 'unknown';
}

function statusTally(instance: MarketplaceInstanceView): string {
  const contracts = instance.components.filter((component) => component.dataContract);
  if (contracts.length === 0) return 'No data contracts';
  const parts = STATUS_ORDER.flatMap((status) => {
    const count = contracts.filter((component) => contractStatus(component) === status).length;
    return count === 0 ? [] : [`${count} ${TALLY_WORDS[status]}`];
  });
  return `${contracts.length} data contract${contracts.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

function componentRow(
  instance: MarketplaceInstanceView,
  component: MarketplaceInstanceView['components'][number],
): Markup {
  const name = component.name ?? component.id;
  const status = component.dataContract
    ? markup`<a href="${contractHref(component.id, instance.environment)}" aria-label="${`${name}: ${STATUS_LABELS[contractStatus(component)]}, view compliance details`}">${statusBadge(contractStatus(component))}</a>${
        component.compliance?.evaluatedAt
          ? markup`<div class="muted">evaluated ${formatTimestamp(component.compliance.evaluatedAt)}</div>`
          : ''
      }`
    : markup`<span class="muted">Not a data contract</span>`;
  return markup`<tr data-component="${component.id}"><th scope="row">${
    component.dataContract
      ? markup`<a href="${contractHref(component.id, instance.environment)}">${name}</a>`
      : name
  }<div><code>${component.id}</code></div></th><td data-label="Kind">${component.kind ?? ''}</td><td data-label="Status">${status}</td></tr>`;
}

function instanceCard(instance: MarketplaceInstanceView, index: number): Markup {
  const headingId = `instance-${index}`;
  return markup`<li><article class="card" id="${instanceAnchor(instance.systemId, instance.environment)}" aria-labelledby="${headingId}">
<h2 id="${headingId}">${instance.name}</h2>
<p class="instance-meta"><code>${instance.systemId}</code> · ${instance.kind}${instance.version ? ` · version ${instance.version}` : ''} · environment <strong>${instance.environment}</strong> · deployed ${formatTimestamp(instance.deployedAt)}</p>
<p>${statusTally(instance)}</p>
${
  instance.components.length > 0
    ? markup`<table><caption class="visually-hidden">Components of ${instance.name}</caption>
<thead><tr><th scope="col">Component</th><th scope="col">Kind</th><th scope="col">Data contract status</th></tr></thead>
<tbody>${instance.components.map((component) => componentRow(instance, component))}</tbody></table>`
    : markup`<p class="muted">This instance has no components.</p>`
}
</article></li>`;
}

function environmentFilter(model: InstancesPageModel): Markup {
  const options = model.environments.map(
    (environment) =>
      markup`<option value="${environment}"${environment === model.environment ? trusted(' selected') : ''}>${environment}</option>`,
  );
  return markup`<form class="filter" method="get" action="/marketplace" role="search" aria-label="Filter instances by environment">
<div><label for="environment">Environment</label>
<select id="environment" name="environment"><option value=""${model.environment === undefined ? trusted(' selected') : ''}>All environments</option>${options}</select></div>
<button type="submit">Show</button>
</form>`;
}

function emptyState(model: InstancesPageModel): Markup {
  if (model.environment === undefined) {
    return markup`<p>No system is deployed yet. Instances appear here once the provisioning coordinator deploys one.</p>`;
  }
  const others = model.environments.filter((environment) => environment !== model.environment);
  return markup`<section aria-labelledby="empty-heading"><h2 id="empty-heading">No instances in environment ${model.environment}</h2>
<p>Nothing is deployed in the environment <strong>${model.environment}</strong>. Check the spelling, or choose one of the environments below.</p>
${
  others.length > 0
    ? markup`<ul>${others.map((environment) => markup`<li><a href="${marketplaceHref(environment)}">${environment}</a></li>`)}</ul>`
    : ''
}
<p><a href="${marketplaceHref()}">Show all environments</a></p></section>`;
}

/**
 * The list page: every deployed instance (optionally of one environment) with its components and
 * the compliance status of each data contract, linking to the contract pages.
 *
 * @example
 * const page = instancesPage({ instances, environments: ['production'], environment: 'production' });
 */
export function instancesPage(model: InstancesPageModel): Markup {
  const scope =
    model.environment === undefined ? 'all environments' : `environment ${model.environment}`;
  const count = model.instances.length;
  const main = markup`<h1>Marketplace</h1>
${environmentFilter(model)}
<p role="status">${count} instance${count === 1 ? '' : 's'} in ${scope}</p>
${
  count > 0
    ? markup`<ul class="instances" aria-label="Instances">${model.instances.map(instanceCard)}</ul>`
    : emptyState(model)
}`;
  return pageLayout({
    title: model.environment === undefined ? 'Marketplace' : `Marketplace (${model.environment})`,
    breadcrumbs: [{ label: 'Marketplace', href: marketplaceHref() }],
    main,
  });
}
