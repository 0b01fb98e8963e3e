import type { CurrentResultStatus, Policy } from '@dcg/governance';
import { formatTimestamp } from './format-timestamp';
import { resultHref } from './marketplace-links';
import { type Markup, markup } from './markup';
import { policyLink } from './policy-link';
import { statusBadge } from './status-badge';

/** What the timeline shows: one page of a contract's result states, newest first. */
export interface ResultTimelineModel {
  states: CurrentResultStatus[];
  /** Results of the contract in the environment, on all pages. */
  total: number;
  /** Position of the first state among all, newest first (0 on the first page). */
  offset: number;
  policies: ReadonlyMap<string, Policy>;
  /** Accessible name of the list. */
  label: string;
  /** The contract and environment of the states: each entry then links to that result's records. */
  contract?: { contractId: string; environment: string };
}

/**
 * The states of a contract's results as a timeline, newest first: the state, when it arrived (to
 * the second), where it changed from the result before it, and the policy where the list starts
 * and wherever it changes.
 *
 * @example
 * const list = resultTimeline({ states, total: 42, offset: 0, policies, label: 'Latest results' });
 */
export function resultTimeline(model: ResultTimelineModel): Markup {
  const items = model.states.map((state, index) => {
    const older = model.states[index + 1];
    const newer = model.states[index - 1];
    const position = model.offset + index;
    const change =
      older === undefined || older.status === state.status
        ? ''
        : markup` <span class="change">changed</span>`;
    // The policy is named where the list starts and where it changes, not on every line.
    const policy =
      newer === undefined || newer.policyId !== state.policyId
        ? markup`<div class="muted">policy ${policyLink(state.policyId, model.policies)}</div>`
        : '';
    const when = formatTimestamp(state.receivedAt, { seconds: true });
    const opened = model.contract
      ? markup`<a href="${resultHref(model.contract.contractId, model.contract.environment, state.seq)}">${when}</a>`
      : when;
    return markup`<li class="timeline-${state.status}" data-seq="${String(state.seq)}">${opened} ${statusBadge(state.status)}${change}${
      position === 0 ? markup` <span class="muted">(latest)</span>` : ''
    }${policy}</li>`;
  });
  return markup`<ol class="timeline" aria-label="${model.label}">${items}</ol>`;
}
