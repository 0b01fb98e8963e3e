import { type TechnicalValue, technicalInformation } from '@dcg/governance';
import { type Markup, markup } from './markup';

function renderValue(value: TechnicalValue): Markup {
  switch (value.kind) {
    case 'text':
      return markup`${value.text}`;
    case 'link':
      // Links lead away from the marketplace: no referrer, no credit for the target.
      return markup`<a href="${value.href}" rel="noopener noreferrer nofollow">${value.text}</a>`;
    case 'list':
      return value.items.length === 0
        ? markup`<span class="muted">none</span>`
        : markup`<ul>${value.items.map((item) => markup`<li>${renderValue(item)}</li>`)}</ul>`;
    case 'group':
      return value.entries.length === 0
        ? markup`<span class="muted">none</span>`
        : markup`<dl>${value.entries.map(
            (entry) => markup`<dt>${entry.label}</dt><dd>${renderValue(entry.value)}</dd>`,
          )}</dl>`;
    case 'empty':
      return markup`<span class="muted">none</span>`;
  }
}

/**
 * The "Technical information" card of a component: the `publicInfo` its tech adapter returned,
 * as labelled values (links for web URLs, nested values nested), or nothing when it returned none.
 *
 * @example
 * const card = technicalInformationCard({ dashboard: 'https://grafana.example/d/1' }, 'tech-1', 3);
 */
export function technicalInformationCard(
  publicInfo: Record<string, unknown> | undefined,
  headingId: string,
  headingLevel: 2 | 3 = 3,
): Markup | string {
  if (publicInfo === undefined) return '';
  const info = technicalInformation(publicInfo);
  if (info.entries.length === 0) return '';
  const heading =
    headingLevel === 2
      ? markup`<h2 id="${headingId}">Technical information</h2>`
      : markup`<h3 id="${headingId}">Technical information</h3>`;
  return markup`<section class="tech-info" aria-labelledby="${headingId}">
${heading}
<dl class="tech-values">${info.entries.map(
    (entry) =>
      markup`<dt data-key="${entry.key}">${entry.label}</dt><dd>${renderValue(entry.value)}</dd>`,
  )}</dl>
${info.omitted > 0 ? markup`<p class="muted">${info.omitted} more value${info.omitted === 1 ? ' is' : 's are'} not shown.</p>` : ''}
</section>`;
}
