import type { Selectable } from 'kysely';
import { GovernanceError, governanceIssue } from '../errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../limits';
import type { Policy } from '../policy';
import type { ContractGuard, TemplatePolicyDraft } from '../repositories';
import { camelCased } from './camel-cased';
import type { GovernanceTables } from './governance-tables';

/** A policy row as both dialects read it (the table's type in governance-tables.ts). */
export type PolicyRow = Selectable<GovernanceTables['policies']>;

/**
 * Maps a policy row to the domain shape. The columns are constrained by CHECK clauses, so the casts
 * only restate what the database guarantees.
 *
 * @example
 * const policy = policyFromRow(row);
 */
export function policyFromRow(row: PolicyRow): Policy {
  const policy = camelCased(row);
  return {
    ...policy,
    trigger: policy.trigger as Policy['trigger'],
    status: policy.status as Policy['status'],
  };
}

/**
 * Clamps paging input to sane bounds (limit 1..MAX_PAGE_SIZE, offset >= 0).
 *
 * @example
 * const { limit, offset } = clampPaging(50, 0);
 */
export function clampPaging(limit: number, offset: number): { limit: number; offset: number } {
  const l = Number.isFinite(limit)
    ? Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE_SIZE)
    : DEFAULT_PAGE_SIZE;
  const o = Number.isFinite(offset) ? Math.max(Math.trunc(offset), 0) : 0;
  return { limit: l, offset: o };
}

/**
 * Whether a lookup key holds the NUL character: no stored text can (see
 * {@link assertStorableText}), so no row matches it, and PostgreSQL would refuse the query.
 *
 * @example
 * if (hasNul(id)) return null;
 */
export function hasNul(text: string | null | undefined): boolean {
  return typeof text === 'string' && text.includes('\u0000');
}

/**
 * A new id for records the store creates itself (guardian template policies).
 *
 * @example
 * const id = newId();
 */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * Refuses text that PostgreSQL cannot store (the NUL character), the same way in every store, so
 * a store switch never changes what is accepted. JSON documents are exempt: they carry NUL escaped.
 *
 * @example
 * assertStorableText({ id: policy.id, name: policy.name });
 */
export function assertStorableText(fields: Record<string, string | null | undefined>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === 'string' && value.includes('\u0000')) {
      throw new GovernanceError('invalid_input', `${field} must not contain the NUL character`, {
        issues: [governanceIssue('nul_character', [field], 'must not contain the NUL character')],
      });
    }
  }
}

/**
 * The environment a template registration is for: its `environment`, or null when it has none
 * (or an empty one): such a registration serves every environment without one of its own.
 *
 * @example
 * registrationEnvironment({ id: 'urn:dmb:itm:x', environment: 'production' }); // 'production'
 */
export function registrationEnvironment(document: Record<string, unknown>): string | null {
  const { environment } = document;
  return typeof environment === 'string' && environment !== '' ? environment : null;
}

/**
 * Checks a template registration for text no store can keep (see {@link assertStorableText}).
 *
 * @example
 * assertStorableTemplate(document, drafts);
 */
export function assertStorableTemplate(
  document: Record<string, unknown> & { id: string },
  drafts: readonly TemplatePolicyDraft[],
): void {
  assertStorableText({ id: document.id, environment: registrationEnvironment(document) });
  for (const d of drafts) {
    assertStorableText({ resourceType: d.resourceType, name: d.name, description: d.description });
  }
}

/**
 * The passive policy a guardian template's draft creates, or the existing one updated by it.
 *
 * @example
 * const policy = templatePolicy('urn:dmb:itm:g:1', draft, now, existingRow);
 */
export function templatePolicy(
  templateId: string,
  draft: TemplatePolicyDraft,
  now: string,
  existing?: PolicyRow,
): Policy {
  if (existing) {
    return {
      ...policyFromRow(existing),
      name: draft.name,
      description: draft.description,
      updatedAt: now,
    };
  }
  return {
    id: newId(),
    name: draft.name,
    description: draft.description,
    resourceType: draft.resourceType,
    trigger: 'passive',
    status: 'enabled',
    environment: null,
    templateId,
    createdAt: now,
    updatedAt: now,
  };
}

/** An `instance_guards` row as both dialects read it. */
export type GuardRow = Selectable<GovernanceTables['instance_guards']>;

/**
 * Maps an `instance_guards` row to the domain shape.
 *
 * @example
 * const guards = rows.map(guardFromRow);
 */
export function guardFromRow(row: GuardRow): ContractGuard {
  return camelCased(row);
}
