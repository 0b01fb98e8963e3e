import { contractStateOf } from '@dcg/contract-schema';
import type { MarketplaceInstanceView } from '@dcg/governance';
import { formatTimestamp } from './format-timestamp';
import { contractHref, instanceAnchor, marketplaceHref, systemHref } from './marketplace-links';
import { type Markup, markup } from './markup';
import { pageLayout } from './page-layout';
import { STATUS_LABELS, statusBadge } from './status-badge';
import { technicalInformationCard } from './technical-information-card';

type InstanceComponent = MarketplaceInstanceView['components'][number];

function componentSection(
  instance: MarketplaceInstanceView,
  component: InstanceComponent,
  index: number,
): Markup {
  const name = component.name ?? component.id;
  const headingId = `component-${index}`;
  const status = contractStateOf(component.compliance);
  return markup`<section class="component" id="${component.id}" aria-labelledby="${headingId}">
<h2 id="${headingId}">${name}</h2>
<p class="instance-meta"><code>${component.id}</code>${component.kind ? ` · ${component.kind}` : ''}</p>
${
  component.dataContract
    ? markup`<p>Data contract: <a href="${contractHref(component.id, instance.environment)}" aria-label="${`${name}: ${STATUS_LABELS[status]}, view compliance details`}">${statusBadge(status)}</a>${
        component.compliance?.evaluatedAt
          ? markup` <span class="muted">evaluated ${formatTimestamp(component.compliance.evaluatedAt)}</span>`
          : ''
      }</p>`
    : markup`<p class="muted">Not a data contract.</p>`
}
${technicalInformationCard(component.publicInfo, `tech-${index}`)}
</section>`;
}

/**
 * The page of one deployed system in one environment: its facts and a section per component
 * (addressable by the component's URN as fragment) with the status of its data contract and the
 * "Technical information" its tech adapter published.
 *
 * @example
 * const page = systemPage(await readModel.getInstance(systemId, 'production'));
 */
export function systemPage(instance: MarketplaceInstanceView): Markup {
  const main = markup`<h1>${instance.name}</h1>
${instance.description ? markup`<p class="system-description">${instance.description}</p>` : ''}
<dl class="facts">
${instance.domain ? markup`<dt>Domain</dt><dd>${instance.domain}</dd>` : ''}
${instance.owner ? markup`<dt>Owner</dt><dd>${instance.owner}</dd>` : ''}
<dt>System</dt><dd><code>${instance.systemId}</code></dd>
<dt>Kind</dt><dd>${instance.kind}</dd>
${instance.version ? markup`<dt>Version</dt><dd>${instance.version}</dd>` : ''}
<dt>Environment</dt><dd>${instance.environment}</dd>
<dt>Deployed</dt><dd>${formatTimestamp(instance.deployedAt)}</dd>
</dl>
<p class="muted"><a href="${marketplaceHref(instance.environment)}#${encodeURIComponent(instanceAnchor(instance.systemId, instance.environment))}">Back to the list of instances</a> · <a href="${systemHref(instance.systemId, instance.environment)}&amp;format=json" type="application/json">This system as JSON</a></p>
${
  instance.components.length > 0
    ? instance.components.map((component, index) => componentSection(instance, component, index))
    : markup`<p class="muted">This system has no components.</p>`
}`;
  return pageLayout({
    title: `${instance.name} (${instance.environment})`,
    breadcrumbs: [
      { label: 'Marketplace', href: marketplaceHref(instance.environment) },
      { label: instance.name, href: systemHref(instance.systemId, instance.environment) },
    ],
    main,
    jsonHref: `${systemHref(instance.systemId, instance.environment)}&format=json`,
  });
}
