/*
 * sparqljs normalises numeric literals as it parses (`+5` becomes "5", `1E3` becomes "1e3"), but a
 * literal in a triple pattern matches by term identity, so the written lexical form matters. This
 * scans the query text for numeric tokens and restores the written form whenever exactly one written
 * form normalises to what sparqljs produced.
 */

const TOKENS =
  /'''[\s\S]*?'''|"""[\s\S]*?"""|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|<[^<>"{}|^`\\\s]*>|#[^\n]*|[A-Za-z_?$:\\][\w\-.:%\\]*|([+-]?(?:\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+(?:[eE][+-]?\d+)?))|\S/g;

function normalise(token: string): string {
  const unsigned = token.startsWith('+') ? token.slice(1) : token;
  return /[eE]/.test(unsigned) ? unsigned.toLowerCase() : unsigned;
}

/** Normalised lexical form → the one form written in the query, where that is unambiguous. */
export function writtenNumericForms(text: string): Map<string, string> {
  const forms = new Map<string, Set<string>>();
  for (const match of text.matchAll(TOKENS)) {
    const token = match[1];
    if (token === undefined) continue;
    const key = normalise(token);
    let set = forms.get(key);
    if (!set) {
      set = new Set();
      forms.set(key, set);
    }
    set.add(token);
  }
  const out = new Map<string, string>();
  for (const [key, set] of forms) {
    if (set.size !== 1) continue;
    const [only] = set as Set<string> & [string];
    if (only !== key) out.set(key, only);
  }
  return out;
}
