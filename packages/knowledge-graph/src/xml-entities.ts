/**
 * Longest replacement text of one DOCTYPE entity, its references expanded (characters). Billion
 * laughs (ten entities each naming the previous one ten times) reaches it at the sixth level and
 * is refused there, after at most this much work per entity.
 */
export const MAX_ENTITY_LENGTH = 64 * 1024;

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** Why an entity declaration cannot be used: `expansion` is the size bound, the rest syntax. */
export interface EntityIssue {
  message: string;
  /** Offset in the internal subset of the declaration at fault. */
  offset: number;
  expansion: boolean;
}

/**
 * The internal general entities an XML internal DTD subset declares, each expanded to the text a
 * reference inserts (XML 1.0 §4.4, §4.5): character references are replaced at declaration,
 * entity references when the entity is included, recursively, each result at most
 * {@link MAX_ENTITY_LENGTH} characters. External entities (`SYSTEM`, `PUBLIC`) and parameter
 * entities are left out: a reference to one is an undefined entity. Markup in replacement text
 * (`<`, which XML would parse as elements) and recursion are refused.
 *
 * @example
 * expandEntities('<!ENTITY a "x"><!ENTITY b "&a;&a;">'); // { success: true, entities: Map { a → 'x', b → 'xx' } }
 */
export function expandEntities(
  subset: string,
): { success: true; entities: Map<string, string> } | { success: false; issue: EntityIssue } {
  const declared = new Map<string, { literal: string; offset: number }>();
  // Quoted values may hold `>`. No two quantifiers here can share white space, so a long run of
  // it costs linear time, never quadratic backtracking.
  const declaration =
    /<!ENTITY\s+(%\s+)?([^\s"'>]+)\s+(?:"([^"]*)"\s*>|'([^']*)'\s*>|[^\s"'>][^>]*>)/g;
  for (const match of withoutComments(subset).matchAll(declaration)) {
    const [, parameter, name, double, single] = match;
    const literal = double ?? single;
    // The first declaration binds (XML 1.0 §4.2); external and parameter entities are not read.
    if (!name || parameter || literal === undefined || declared.has(name)) continue;
    declared.set(name, { literal, offset: match.index });
  }

  const expanded = new Map<string, string>();
  const expanding = new Set<string>();
  let failure: EntityIssue | undefined;
  const fail = (name: string, message: string, expansion = false): undefined => {
    failure ??= { message, offset: declared.get(name)?.offset ?? 0, expansion };
    return undefined;
  };

  const expand = (name: string): string | undefined => {
    const done = expanded.get(name);
    if (done !== undefined) return done;
    const entry = declared.get(name);
    if (!entry) return undefined;
    if (expanding.has(name)) return fail(name, `entity ${name} refers to itself`);
    expanding.add(name);
    const replacement = replaceCharacterReferences(entry.literal);
    if (replacement === undefined)
      return fail(name, `entity ${name}: malformed character reference`);
    let text = '';
    let at = 0;
    while (at < replacement.length) {
      const amp = replacement.indexOf('&', at);
      const lt = replacement.indexOf('<', at);
      if (lt >= 0 && (amp < 0 || lt < amp)) {
        return fail(
          name,
          `entity ${name}: markup in an entity's replacement text is not supported`,
        );
      }
      if (amp < 0) {
        text += replacement.slice(at);
        break;
      }
      text += replacement.slice(at, amp);
      const end = replacement.indexOf(';', amp);
      const reference = end < 0 ? '' : replacement.slice(amp + 1, end);
      let value: string | undefined;
      if (reference.startsWith('#')) value = characterOf(reference);
      else value = PREDEFINED[reference] ?? expand(reference);
      if (failure) return undefined;
      if (value === undefined) {
        return fail(name, `entity ${name}: reference to an undefined entity &${reference};`);
      }
      text += value;
      if (text.length > MAX_ENTITY_LENGTH) break;
      at = end + 1;
    }
    if (text.length > MAX_ENTITY_LENGTH) {
      return fail(
        name,
        `entity ${name} expands to more than ${MAX_ENTITY_LENGTH} characters`,
        true,
      );
    }
    expanding.delete(name);
    expanded.set(name, text);
    return text;
  };

  for (const name of declared.keys()) {
    expand(name);
    if (failure) return { success: false, issue: failure };
  }
  return { success: true, entities: expanded };
}

// Comments (which may quote declarations) blanked out, keeping every offset.
function withoutComments(subset: string): string {
  let out = '';
  let at = 0;
  for (let open = subset.indexOf('<!--'); open >= 0; open = subset.indexOf('<!--', at)) {
    const close = subset.indexOf('-->', open + 4);
    const end = close < 0 ? subset.length : close + 3;
    out += subset.slice(at, open) + ' '.repeat(end - open);
    at = end;
  }
  return out + subset.slice(at);
}

/** The character a `#…` reference names, or undefined when it names none XML allows. */
export function characterOf(reference: string): string | undefined {
  const code = /^#x[0-9a-fA-F]{1,6}$/.test(reference)
    ? Number.parseInt(reference.slice(2), 16)
    : /^#[0-9]{1,7}$/.test(reference)
      ? Number.parseInt(reference.slice(1), 10)
      : Number.NaN;
  const allowed =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  return allowed ? String.fromCodePoint(code) : undefined;
}

function replaceCharacterReferences(literal: string): string | undefined {
  let malformed = false;
  const text = literal.replace(/&(#[^;]*);/g, (_, reference: string) => {
    const character = characterOf(reference);
    if (character === undefined) malformed = true;
    return character ?? '';
  });
  return malformed ? undefined : text;
}
