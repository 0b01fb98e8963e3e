/**
 * A deployed system as the search sees it: the marketplace instance's identity and its descriptor
 * (structurally the governance `InstanceRecord`).
 *
 * @example
 * const instance: SearchableInstance = { systemId: 'urn:dmb:dp:finance:invoices:0', environment: 'production',
 *   descriptor: { name: 'Invoices', components: [] }, deployedAt: '2026-01-01T00:00:00.000Z' };
 */
export interface SearchableInstance {
  systemId: string;
  environment: string;
  descriptor: Record<string, unknown>;
  deployedAt: string;
}

/**
 * What the indexes keep of an instance: the text that is embedded, the fields that lexical search
 * weighs, the identifiers that match exactly, and a hash of the text (a changed hash is stale).
 *
 * @example
 * const doc = instanceDocument(instance); doc.embeddingText.startsWith('Invoices');
 */
export interface InstanceDocument {
  systemId: string;
  environment: string;
  name: string;
  kind: string;
  domain: string | undefined;
  /** The system's kind and the kinds of its components (for the kind filter). */
  kinds: string[];
  /** Ids and names of the system and of every component (exact matches). */
  identifiers: string[];
  /** Weighted fields for lexical search: names/ids (3), domain/kinds/tags (2), the rest (1). */
  fields: { names: string; facets: string; body: string };
  /** The text the embedding model reads. */
  embeddingText: string;
  /** {@link textHash} of `embeddingText`: a changed text makes the embedding stale. */
  textHash: string;
}

const MAX_TEXT_CHARS = 6000;
const MAX_COMPONENTS = 200;
const MAX_COLUMNS = 200;

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

function tagsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const tag of value) {
    if (typeof tag === 'string') out.push(tag);
    else if (tag && typeof tag === 'object') {
      const t = tag as Record<string, unknown>;
      const name = str(t.tagFQN) ?? str(t.name) ?? str(t.label);
      if (name) out.push(name);
    }
  }
  return out;
}

function columnsOf(component: Record<string, unknown>): Array<Record<string, unknown>> {
  const contract = component.dataContract;
  if (!contract || typeof contract !== 'object') return [];
  const schema = (contract as Record<string, unknown>).schema;
  if (!Array.isArray(schema)) return [];
  return schema.filter((c): c is Record<string, unknown> => !!c && typeof c === 'object');
}

function flattenComponents(
  value: unknown,
  into: Array<Record<string, unknown>>,
  depth: number,
): void {
  if (!Array.isArray(value) || depth > 8) return;
  for (const c of value) {
    if (into.length >= MAX_COMPONENTS) return;
    if (!c || typeof c !== 'object') continue;
    into.push(c as Record<string, unknown>);
    flattenComponents((c as Record<string, unknown>).components, into, depth + 1);
  }
}

/**
 * A 64-bit hash of a string as 16 hex digits: two 32-bit FNV-1a passes with different offsets
 * (runtime-neutral, synchronous, no BigInt on the hot path).
 *
 * @example
 * textHash('abc').length; // 16
 */
export function textHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 0x01000193);
    b = Math.imul(b ^ ch, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * The document of an instance. The embedded text is, in this order: the system's name, kind,
 * domain and description; its tags; then per component (at any depth, at most 200) its name,
 * kind and description, and for a data contract its columns with data type and description (at
 * most 200 per component). URNs stay out of the embedded text (they carry no meaning for a
 * model) and go to the exact-match identifiers and the lexical names field. The text is cut at
 * 6,000 characters, within every provider's input limit.
 *
 * @example
 * instanceDocument({ systemId: 'urn:dmb:dp:f:inv:0', environment: 'prod', deployedAt: '', descriptor: { name: 'Invoices' } }).name; // 'Invoices'
 */
export function instanceDocument(instance: SearchableInstance): InstanceDocument {
  const d = instance.descriptor;
  const name = str(d.name) ?? instance.systemId;
  const kind = str(d.kind) ?? 'system';
  const domain = str(d.domain);
  const description = str(d.description);
  const tags = tagsOf(d.tags);
  const components: Array<Record<string, unknown>> = [];
  flattenComponents(d.components, components, 0);

  const identifiers = [instance.systemId, name];
  const kinds = new Set([kind]);
  const names = [name, instance.systemId];
  const facets = [kind, domain ?? '', ...tags];
  const body: string[] = [description ?? ''];
  const lines: string[] = [
    `${name}. A ${kind}${domain ? ` of the ${domain} domain` : ''}.${description ? ` ${description}` : ''}`,
  ];
  if (tags.length > 0) lines.push(`Tags: ${tags.join(', ')}.`);
  for (const c of components) {
    const cName = str(c.name);
    const cId = str(c.id);
    const cKind = str(c.kind);
    const cDescription = str(c.description);
    if (cId) identifiers.push(cId);
    if (cKind) kinds.add(cKind);
    if (cName) identifiers.push(cName);
    names.push(cName ?? '', cId ?? '');
    facets.push(cKind ?? '', ...tagsOf(c.tags));
    body.push(cDescription ?? '');
    // A component that repeats the system's description adds length (embedding time) and no meaning.
    const ownDescription = cDescription === description ? undefined : cDescription;
    const columns = columnsOf(c).slice(0, MAX_COLUMNS);
    const columnText = columns
      .map((col) => {
        const colName = str(col.name) ?? '';
        const type = str(col.dataType);
        const colDescription = str(col.description);
        body.push(colName, colDescription ?? '');
        return `${colName}${type ? ` (${type.toLowerCase()})` : ''}${colDescription ? `: ${colDescription}` : ''}`;
      })
      .join('; ');
    const head = `${cKind === 'outputport' ? 'Output port' : (cKind ?? 'Component')} ${cName ?? ''}`;
    lines.push(
      `${head.trim()}.${ownDescription ? ` ${ownDescription}` : ''}${columnText ? ` Columns: ${columnText}.` : ''}`,
    );
  }
  let embeddingText = lines.join('\n');
  if (embeddingText.length > MAX_TEXT_CHARS) embeddingText = embeddingText.slice(0, MAX_TEXT_CHARS);
  return {
    systemId: instance.systemId,
    environment: instance.environment,
    name,
    kind,
    domain,
    kinds: [...kinds],
    identifiers: [...new Set(identifiers)],
    fields: {
      names: names.filter(Boolean).join(' '),
      facets: facets.filter(Boolean).join(' '),
      body: body.filter(Boolean).join(' '),
    },
    embeddingText,
    textHash: textHash(embeddingText),
  };
}
