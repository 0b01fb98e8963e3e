import type { ContractComplianceView, Policy } from '@dcg/governance';
import type { ContractPlacement } from './contract-page';
import { complianceRecordsSection } from './contract-page';
import { formatTimestamp } from './format-timestamp';
import { contractHref, historyHref, marketplaceHref, resultHref } from './marketplace-links';
import { type Markup, markup } from './markup';
import { pageLayout } from './page-layout';
import { policyLink } from './policy-link';
import { STATUS_LABELS, statusBadge } from './status-badge';

/** What the page of one result shows. */
export interface ResultPageModel {
  seq: number;
  view: ContractComplianceView;
  policies: ReadonlyMap<string, Policy>;
  placement?: ContractPlacement;
}

/**
 * The page of one stored result of a data contract (opened from its history): its state, when it
 * arrived, its policy, and its records or schema errors, as the contract page shows the latest.
 *
 * @example
 * const page = resultPage({ seq: 42, view, policies });
 */
export function resultPage(model: ResultPageModel): Markup {
  const { view } = model;
  const title = model.placement?.component.name ?? view.contractId;
  const main = markup`<h1>Result ${String(model.seq)} of ${title}</h1>
<p>${statusBadge(view.status, { large: true })}</p>
<dl class="facts">
<dt>Data contract</dt><dd><a href="${contractHref(view.contractId, view.environment)}">${title}</a> <code>${view.contractId}</code></dd>
<dt>Environment</dt><dd>${view.environment}</dd>
<dt>Received</dt><dd>${view.evaluatedAt === null ? '' : formatTimestamp(view.evaluatedAt, { seconds: true })}</dd>
<dt>Policy</dt><dd>${view.policyId === null ? '' : policyLink(view.policyId, model.policies)}</dd>
${
  view.status === 'compliant' || view.status === 'violated'
    ? markup`<dt>Requirements</dt><dd>${view.counts.compliant} met, ${view.counts.failing} failing</dd>`
    : ''
}
</dl>
<p class="muted"><a href="${historyHref(view.contractId, view.environment)}">Back to the result history</a> · <a href="${resultHref(view.contractId, view.environment, model.seq)}&amp;format=json" type="application/json">This result as JSON</a></p>
${complianceRecordsSection(view, model.placement)}`;
  return pageLayout({
    title: `${STATUS_LABELS[view.status]}: result ${model.seq} of ${title} (${view.environment})`,
    breadcrumbs: [
      { label: 'Marketplace', href: marketplaceHref(view.environment) },
      { label: title, href: contractHref(view.contractId, view.environment) },
      { label: 'Result history', href: historyHref(view.contractId, view.environment) },
      { label: `Result ${model.seq}` },
    ],
    main,
    jsonHref: `${resultHref(view.contractId, view.environment, model.seq)}&format=json`,
  });
}
