import { expandEntities } from './xml-entities';

/**
 * Default deepest nesting of RDF/XML elements. The RDF/XML parser's cost grows much faster than
 * the depth (4,000 levels took 0.9 s, 8,000 levels 42 s); SKOS and OWL dumps nest a few levels.
 *
 * @example
 * await parseRdf(text, 'rdf-xml', { maxXmlDepth: DEFAULT_MAX_XML_DEPTH * 2 });
 */
export const DEFAULT_MAX_XML_DEPTH = 128;

/**
 * Characters that entity references may insert into one document in all: 1 MiB, or the
 * document's own length when larger. Each entity is bounded too (`MAX_ENTITY_LENGTH`), so a
 * document of many references to one large entity is refused as well.
 */
export const entityExpansionBudget = (documentLength: number) =>
  Math.max(1024 * 1024, documentLength);

/** What {@link preflightXml} found: the entities to install, or the first fault and where. */
export type XmlPreflight =
  | { success: true; entities: Map<string, string> }
  | { success: false; message: string; position: number; exceeded?: 'depth' | 'expansion' };

const PREDEFINED = new Set(['lt', 'gt', 'amp', 'apos', 'quot']);

// `;`, white space, `&`, `<`, `>` and quotes end an entity name.
const NOT_IN_NAME = new Set([59, 32, 9, 10, 13, 38, 60, 62, 34, 39]);

/** Characters scanned between two turns of the event loop. */
const SCAN_CHUNK = 1024 * 1024;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One pass over an XML document before it is parsed: the element nesting (refused deeper than
 * `maxDepth`), the DOCTYPE's entities (expanded, each bounded) and every entity reference (an
 * undefined one is refused, and together they may insert at most
 * {@link entityExpansionBudget} characters). Comments, CDATA sections, processing instructions
 * and quoted attribute values are skipped. Yields to the event loop every few MB. What is not
 * well-formed is left to the parser to report.
 *
 * @example
 * const checked = await preflightXml(text, DEFAULT_MAX_XML_DEPTH);
 */
export async function preflightXml(text: string, maxDepth: number): Promise<XmlPreflight> {
  let entities = new Map<string, string>();
  let budget = entityExpansionBudget(text.length);
  let depth = 0;
  let nextYield = SCAN_CHUNK;
  let i = 0;

  // The next `&` at or after an offset, found once for all the segments before it: searching
  // from every segment to an `&` far away would make the pass quadratic.
  let nextAmp = -1;
  const ampFrom = (from: number) => {
    if (nextAmp < from && nextAmp !== text.length) {
      nextAmp = text.indexOf('&', from);
      if (nextAmp < 0) nextAmp = text.length;
    }
    return nextAmp;
  };
  // Entity references in text or an attribute value from `from` to `to`.
  const references = (from: number, to: number): XmlPreflight | undefined => {
    for (let amp = ampFrom(from); amp < to; amp = ampFrom(amp + 1)) {
      // A name ends at `;`; any other delimiter first makes it malformed, for the parser to
      // report. Stopping there keeps the pass linear.
      let end = amp + 1;
      while (end < to && !NOT_IN_NAME.has(text.charCodeAt(end))) end++;
      if (end >= to || text.charCodeAt(end) !== 59 /* ; */) continue;
      const name = text.slice(amp + 1, end);
      if (name.startsWith('#') || PREDEFINED.has(name)) continue;
      const value = entities.get(name);
      if (value === undefined) {
        return {
          success: false,
          message: `undefined entity &${name.slice(0, 100)};`,
          position: amp,
        };
      }
      budget -= value.length;
      if (budget < 0) {
        return {
          success: false,
          exceeded: 'expansion',
          message: `entity references expand to more than ${entityExpansionBudget(text.length)} characters`,
          position: amp,
        };
      }
    }
    return undefined;
  };

  while (i < text.length) {
    if (i >= nextYield) {
      await yieldToEventLoop();
      nextYield = i + SCAN_CHUNK;
    }
    const lt = text.indexOf('<', i);
    const contentEnd = lt < 0 ? text.length : lt;
    const inText = references(i, contentEnd);
    if (inText) return inText;
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) i = skipPast(text, '-->', lt + 4);
    else if (text.startsWith('<![CDATA[', lt)) i = skipPast(text, ']]>', lt + 9);
    else if (text.startsWith('<?', lt)) i = skipPast(text, '?>', lt + 2);
    else if (text.startsWith('<!DOCTYPE', lt)) {
      const doctype = readDoctype(text, lt);
      if (doctype.subset !== undefined) {
        const declared = expandEntities(doctype.subset.text);
        if (!declared.success) {
          return {
            success: false,
            message: declared.issue.message,
            position: doctype.subset.start + declared.issue.offset,
            ...(declared.issue.expansion ? { exceeded: 'expansion' as const } : {}),
          };
        }
        entities = declared.entities;
      }
      i = doctype.end;
    } else if (text.charCodeAt(lt + 1) === 47 /* / */) {
      depth--;
      i = skipPast(text, '>', lt + 2);
    } else {
      // A start tag: attribute values are quoted and may hold `>` and references.
      let j = lt + 1;
      let quote = 0;
      let valueStart = 0;
      for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (quote !== 0) {
          if (c === quote) {
            const inValue = references(valueStart, j);
            if (inValue) return inValue;
            quote = 0;
          }
        } else if (c === 34 || c === 39) {
          quote = c;
          valueStart = j + 1;
        } else if (c === 62 /* > */) break;
      }
      if (text.charCodeAt(j - 1) !== 47 /* / */ && ++depth > maxDepth) {
        return {
          success: false,
          exceeded: 'depth',
          message: `elements are nested more than ${maxDepth} levels deep`,
          position: lt,
        };
      }
      i = j + 1;
    }
  }
  return { success: true, entities };
}

function skipPast(text: string, end: string, from: number): number {
  const at = text.indexOf(end, from);
  return at < 0 ? text.length : at + end.length;
}

// The end of a DOCTYPE declaration, and its internal subset (`[ … ]`) if any; quoted strings and
// comments in the subset may hold `]` and `>`.
function readDoctype(
  text: string,
  start: number,
): { end: number; subset?: { start: number; text: string } } {
  let subsetStart = -1;
  let quote = 0;
  for (let j = start + 9; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (subsetStart >= 0 && text.startsWith('<!--', j)) j = skipPast(text, '-->', j + 4) - 1;
    else if (c === 91 /* [ */ && subsetStart < 0) subsetStart = j + 1;
    else if (c === 93 /* ] */ && subsetStart >= 0) {
      return {
        end: skipPast(text, '>', j + 1),
        subset: { start: subsetStart, text: text.slice(subsetStart, j) },
      };
    } else if (c === 62 /* > */ && subsetStart < 0) return { end: j + 1 };
  }
  return { end: text.length };
}
