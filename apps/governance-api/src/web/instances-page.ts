import {
  COMPLIANCE_SEVERITY_ORDER,
  contractStateOf,
  contractStatesOf,
  type InstanceCompliance,
} from '@dcg/contract-schema';
import {
  type ComplianceViewStatus,
  INSTANCE_COMPLIANCE_ORDER,
  instanceComplianceOf,
  type MarketplaceInstanceView,
} from '@dcg/governance';
import { formatTimestamp } from './format-timestamp';
import { contractHref, instanceAnchor, marketplaceHref, systemHref } from './marketplace-links';
import { type Markup, markup, trusted } from './markup';
import { pageLayout } from './page-layout';
import { SEARCH_HELP_PATH } from './search-help-page';
import { STATUS_LABELS, statusBadge } from './status-badge';

/** What the list page shows: one page of the instances (already filtered) and every known environment. */
export interface InstancesPageModel {
  /** The instances of this page. */
  instances: MarketplaceInstanceView[];
  /** The `?environment=` filter, when one was given. */
  environment?: string;
  /** Every environment that has instances, for the filter and for help when a filter matches none. */
  environments: string[];
  /** The search text (`?q=`), when one was given; the instances are then its hits, best first. */
  query?: string;
  /** Why each hit matched, by instance anchor. */
  reasons?: ReadonlyMap<string, string>;
  /** Said above the hits when the search could not use embeddings (words only). */
  searchNote?: string;
  /** The `?compliance=` filter (instance states), when one was given. */
  compliance?: readonly InstanceCompliance[];
  /** Instances per state before the state filter (the filter's choices and the summary). */
  counts?: Readonly<Record<InstanceCompliance, number>>;
  /** Set when `?compliance=` named states that do not exist: the page says which exist. */
  complianceError?: string;
  /** Paging: 1-based page, page count and the number of instances (or hits) on all pages. */
  page?: number;
  pageCount?: number;
  total?: number;
}

// How a count of contracts in each state reads in a sentence ("2 violated, 1 without results yet").
const TALLY_WORDS: Readonly<Record<ComplianceViewStatus, string>> = {
  violated: 'violated',
  unprocessable: 'with results that cannot be processed',
  unknown: 'without results yet',
  compliant: 'compliant',
};

function statusTally(instance: MarketplaceInstanceView): string {
  const states = contractStatesOf(instance.components);
  if (states.length === 0) return 'No data contracts';
  const parts = COMPLIANCE_SEVERITY_ORDER.flatMap((status) => {
    const count = states.filter((state) => state === status).length;
    return count === 0 ? [] : [`${count} ${TALLY_WORDS[status]}`];
  });
  return `${states.length} data contract${states.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

function componentRow(
  instance: MarketplaceInstanceView,
  component: MarketplaceInstanceView['components'][number],
): Markup {
  const name = component.name ?? component.id;
  const state = contractStateOf(component.compliance);
  const status = component.dataContract
    ? markup`<a href="${contractHref(component.id, instance.environment)}" aria-label="${`${name}: ${STATUS_LABELS[state]}, view compliance details`}">${statusBadge(state)}</a>${
        component.compliance?.evaluatedAt
          ? markup`<div class="muted">evaluated ${formatTimestamp(component.compliance.evaluatedAt)}</div>`
          : ''
      }`
    : markup`<span class="muted">Not a data contract</span>`;
  return markup`<tr data-component="${component.id}"><th scope="row">${
    component.dataContract
      ? markup`<a href="${contractHref(component.id, instance.environment)}">${name}</a>`
      : markup`<a href="${systemHref(instance.systemId, instance.environment, component.id)}">${name}</a>`
  }<div><code>${component.id}</code></div></th><td data-label="Kind">${component.kind ?? ''}</td><td data-label="Status">${status}</td></tr>`;
}

function instanceCard(
  instance: MarketplaceInstanceView,
  index: number,
  reasons: ReadonlyMap<string, string> | undefined,
): Markup {
  const headingId = `instance-${index}`;
  const why = reasons?.get(instanceAnchor(instance.systemId, instance.environment));
  return markup`<li><article class="card" id="${instanceAnchor(instance.systemId, instance.environment)}" aria-labelledby="${headingId}">
<h2 id="${headingId}"><a href="${systemHref(instance.systemId, instance.environment)}">${instance.name}</a></h2>
<p class="instance-meta"><code>${instance.systemId}</code> · ${instance.kind}${instance.version ? ` · version ${instance.version}` : ''} · environment <strong>${instance.environment}</strong> · deployed ${formatTimestamp(instance.deployedAt)}</p>
${instance.description ? markup`<p class="system-description">${instance.description}</p>` : ''}
${systemOwnership(instance)}
${why ? markup`<p class="match">Why it matched: ${why}</p>` : ''}
<div class="instance-state">${instanceStateBadge(instance)}<p>${statusTally(instance)}</p></div>
${
  instance.components.length > 0
    ? markup`<table><caption class="visually-hidden">Components of ${instance.name}</caption>
<thead><tr><th scope="col">Component</th><th scope="col">Kind</th><th scope="col">Data contract status</th></tr></thead>
<tbody>${instance.components.map((component) => componentRow(instance, component))}</tbody></table>`
    : markup`<p class="muted">This instance has no components.</p>`
}
</article></li>`;
}

/** Domain and owner of a system, when its descriptor says them. */
export function systemOwnership(instance: MarketplaceInstanceView): Markup | string {
  if (!instance.domain && !instance.owner) return '';
  return markup`<dl class="ownership">${instance.domain ? markup`<div><dt>Domain</dt><dd>${instance.domain}</dd></div>` : ''}${instance.owner ? markup`<div><dt>Owner</dt><dd>${instance.owner}</dd></div>` : ''}</dl>`;
}

/** The instance's overall state (its worst data contract) as a badge; nothing without contracts. */
function instanceStateBadge(instance: MarketplaceInstanceView): Markup | string {
  const state = instanceComplianceOf(instance);
  return state === 'none' ? '' : statusBadge(state);
}

/** How each instance state reads as a filter choice. */
export const INSTANCE_STATE_WORDS: Readonly<Record<InstanceCompliance, string>> = {
  violated: 'Violated',
  unprocessable: 'Results cannot be processed',
  unknown: 'Without results yet',
  compliant: 'Compliant',
  none: 'No data contracts',
};

/** Counts per state, each a link that filters the list to that state (the current one marked). */
function stateSummary(model: InstancesPageModel): Markup | string {
  if (!model.counts) return '';
  const counts = model.counts;
  const chosen = new Set(model.compliance ?? []);
  const items = INSTANCE_COMPLIANCE_ORDER.map((state) => {
    const label = `${INSTANCE_STATE_WORDS[state]}: ${counts[state]}`;
    const current = chosen.size === 1 && chosen.has(state);
    return markup`<li><a class="state-filter state-${state}" href="${listHref({ ...model, compliance: [state] }, 1)}"${current ? trusted(' aria-current="true"') : ''}>${label}</a></li>`;
  });
  return markup`<nav aria-label="Instances by compliance state"><ul class="state-summary">${items}${
    chosen.size > 0
      ? markup`<li><a href="${listHref({ ...model, compliance: [] }, 1)}">Every state</a></li>`
      : ''
  }</ul></nav>`;
}

function environmentFilter(model: InstancesPageModel): Markup {
  const options = model.environments.map(
    (environment) =>
      markup`<option value="${environment}"${environment === model.environment ? trusted(' selected') : ''}>${environment}</option>`,
  );
  return markup`<form class="filter" method="get" action="/marketplace" role="search" aria-label="Search and filter instances">
<div><label for="environment">Environment</label>
<select id="environment" name="environment"><option value=""${model.environment === undefined ? trusted(' selected') : ''}>All environments</option>${options}</select></div>
<div><label for="compliance">Compliance</label>
<select id="compliance" name="compliance"><option value=""${(model.compliance ?? []).length === 0 ? trusted(' selected') : ''}>Every state</option>${INSTANCE_COMPLIANCE_ORDER.map(
    (state) =>
      markup`<option value="${state}"${model.compliance?.length === 1 && model.compliance[0] === state ? trusted(' selected') : ''}>${INSTANCE_STATE_WORDS[state]}</option>`,
  )}</select></div>
<div><label for="q">Search</label>
<input id="q" name="q" type="search" maxlength="512" value="${model.query ?? ''}" placeholder="name, URN or what it is about"></div>
<button type="submit">Show</button>
</form>`;
}

function emptyState(model: InstancesPageModel): Markup {
  if (model.compliance && model.compliance.length > 0) {
    return markup`<section aria-labelledby="empty-heading"><h2 id="empty-heading">No instance in that state</h2>
<p>No instance${model.environment === undefined ? '' : markup` in the environment <strong>${model.environment}</strong>`} is ${model.compliance.map((state) => INSTANCE_STATE_WORDS[state].toLowerCase()).join(' or ')} right now.</p>
<p><a href="${listHref({ ...model, compliance: [] }, 1)}">Show every state</a></p></section>`;
  }
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

function listHref(model: InstancesPageModel, page: number): string {
  const params = new URLSearchParams();
  if (model.environment !== undefined) params.set('environment', model.environment);
  if (model.query !== undefined) params.set('q', model.query);
  if (model.compliance && model.compliance.length > 0) {
    params.set('compliance', model.compliance.join(','));
  }
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query === '' ? '/marketplace' : `/marketplace?${query}`;
}

/** The list's JSON twin: the same address with `format=json` (or send `Accept: application/json`). */
function jsonHref(model: InstancesPageModel): string {
  const href = listHref(model, model.page ?? 1);
  return `${href}${href.includes('?') ? '&' : '?'}format=json`;
}

function pagination(model: InstancesPageModel): Markup {
  const page = model.page ?? 1;
  const pageCount = model.pageCount ?? 1;
  if (pageCount <= 1) return markup``;
  return markup`<nav class="pages" aria-label="Pages">${
    page > 1 ? markup`<a href="${listHref(model, page - 1)}" rel="prev">Previous page</a>` : ''
  } <span>Page ${String(page)} of ${String(pageCount)}</span> ${
    page < pageCount ? markup`<a href="${listHref(model, page + 1)}" rel="next">Next page</a>` : ''
  }</nav>`;
}

function searchEmptyState(model: InstancesPageModel): Markup {
  return markup`<section aria-labelledby="empty-heading"><h2 id="empty-heading">Nothing matches “${model.query ?? ''}”</h2>
<p>Try other words, a system name or its URN, or <a href="${listHref({ instances: [], environments: model.environments, ...(model.environment === undefined ? {} : { environment: model.environment }) }, 1)}">show every instance</a>.</p></section>`;
}

/**
 * The list page: one page of the deployed instances (optionally of one environment, or the hits
 * of a search, best first, each saying why it matched) with their components and the compliance
 * status of each data contract, linking to the contract pages.
 *
 * @example
 * const page = instancesPage({ instances, environments: ['production'], environment: 'production' });
 */
export function instancesPage(model: InstancesPageModel): Markup {
  const scope =
    model.environment === undefined ? 'all environments' : `environment ${model.environment}`;
  const count = model.total ?? model.instances.length;
  const status =
    model.query === undefined
      ? `${count} instance${count === 1 ? '' : 's'} in ${scope}`
      : `${count} match${count === 1 ? '' : 'es'} for “${model.query}” in ${scope}`;
  const main = markup`<h1>Marketplace</h1>
${environmentFilter(model)}
${model.complianceError ? markup`<p class="error" role="alert">${model.complianceError}</p>` : ''}
${stateSummary(model)}
<p role="status">${status}${model.compliance && model.compliance.length > 0 ? `, ${model.compliance.map((state) => INSTANCE_STATE_WORDS[state].toLowerCase()).join(' or ')}` : ''}</p>
${model.query === undefined && model.counts && model.instances.length > 1 ? markup`<p class="muted">Worst state first: violated, results that cannot be processed, without results yet, compliant, no data contracts.</p>` : ''}
<p class="muted"><a href="${jsonHref(model)}" type="application/json">This list as JSON</a></p>
${model.searchNote ? markup`<p class="muted">${model.searchNote}</p>` : ''}
${model.query !== undefined ? markup`<p class="muted"><a href="${SEARCH_HELP_PATH}">How search ranks</a></p>` : ''}
${
  model.instances.length > 0
    ? markup`<ul class="instances" aria-label="Instances">${model.instances.map((instance, i) => instanceCard(instance, i, model.reasons))}</ul>
${pagination(model)}`
    : model.query !== undefined
      ? searchEmptyState(model)
      : emptyState(model)
}`;
  return pageLayout({
    title: model.environment === undefined ? 'Marketplace' : `Marketplace (${model.environment})`,
    breadcrumbs: [{ label: 'Marketplace', href: marketplaceHref() }],
    main,
    jsonHref: jsonHref(model),
  });
}
