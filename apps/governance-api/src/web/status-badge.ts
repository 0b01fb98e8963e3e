import type { ComplianceViewStatus } from '@dcg/governance';
import { type Markup, markup } from './markup';

/**
 * The words the marketplace uses for each compliance state (the spec's wording for unprocessable).
 *
 * @example
 * STATUS_LABELS.unprocessable; // 'Monitoring results cannot be processed'
 */
export const STATUS_LABELS: Readonly<Record<ComplianceViewStatus, string>> = {
  compliant: 'Compliant',
  violated: 'Violated',
  unprocessable: 'Monitoring results cannot be processed',
  unknown: 'Unknown',
};

const STATUS_ICONS: Readonly<Record<ComplianceViewStatus, string>> = {
  compliant: '✓',
  violated: '✗',
  unprocessable: '!',
  unknown: '?',
};

/**
 * A compliance status badge: icon and word (never colour alone), with a hidden prefix so screen
 * readers announce "Compliance status: Violated".
 *
 * @example
 * const badge = statusBadge('violated', { large: true });
 */
export function statusBadge(
  status: ComplianceViewStatus,
  options: { large?: boolean } = {},
): Markup {
  const className = `badge badge-${status}${options.large ? ' badge-large' : ''}`;
  return markup`<span class="${className}" data-status="${status}"><span class="visually-hidden">Compliance status: </span><span aria-hidden="true">${STATUS_ICONS[status]}</span> ${STATUS_LABELS[status]}</span>`;
}
