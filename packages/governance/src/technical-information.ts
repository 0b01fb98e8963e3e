/**
 * A value of a tech adapter's `publicInfo` as the marketplace shows it: text, a link (only
 * `http:` and `https:` URLs), a list, a group of labelled entries, or nothing.
 */
export type TechnicalValue =
  | { kind: 'text'; text: string }
  | { kind: 'link'; href: string; text: string }
  | { kind: 'list'; items: TechnicalValue[] }
  | { kind: 'group'; entries: TechnicalEntry[] }
  | { kind: 'empty' };

/** One labelled value of the technical information. */
export interface TechnicalEntry {
  /** The key in `publicInfo`. */
  key: string;
  /** What people read: the entry's own `label`, or the key in words. */
  label: string;
  value: TechnicalValue;
}

/** The technical information of a component, bounded. */
export interface TechnicalInformation {
  entries: TechnicalEntry[];
  /** Values left out because the information is larger or deeper than the limits. */
  omitted: number;
}

/**
 * Bounds of {@link technicalInformation}: a hostile adapter can return any JSON.
 *
 * @example
 * const limits: TechnicalInformationLimits = { maxValues: 200, maxDepth: 6, maxTextLength: 2000 };
 */
export interface TechnicalInformationLimits {
  /** Values shown in all (default 200). */
  maxValues: number;
  /** Nesting shown (default 6); deeper values are counted as omitted. */
  maxDepth: number;
  /** Characters of one text (default 2000); longer ones end with "…". */
  maxTextLength: number;
}

const DEFAULT_LIMITS: TechnicalInformationLimits = {
  maxValues: 200,
  maxDepth: 6,
  maxTextLength: 2000,
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The URL when `text` is an absolute `http:` or `https:` URL (never `javascript:` and the like). */
function webUrl(text: string): string | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** `dashboardUrl`, `dashboard_url`, `dashboard-url` → `Dashboard url`. */
function words(key: string): string {
  const spaced = key
    .replaceAll(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replaceAll(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return spaced === '' ? key : spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * The display convention of tech adapters: `{ type: 'string' | 'link' | 'date', label, value, href? }`.
 */
function displayEntry(
  value: Record<string, unknown>,
): { label: string; shown: unknown; href?: string } | undefined {
  if (typeof value.label !== 'string' || !('value' in value || 'href' in value)) return undefined;
  const href = typeof value.href === 'string' ? webUrl(value.href) : undefined;
  return {
    label: value.label,
    shown: value.value ?? value.href,
    ...(href === undefined ? {} : { href }),
  };
}

class Builder {
  private left: number;
  omitted = 0;

  constructor(private readonly limits: TechnicalInformationLimits) {
    this.left = limits.maxValues;
  }

  private text(value: string): string {
    return value.length > this.limits.maxTextLength
      ? `${value.slice(0, this.limits.maxTextLength)}…`
      : value;
  }

  value(raw: unknown, depth: number): TechnicalValue {
    if (raw === null || raw === undefined) return { kind: 'empty' };
    if (typeof raw === 'string') {
      const href = webUrl(raw);
      return href === undefined
        ? { kind: 'text', text: this.text(raw) }
        : { kind: 'link', href, text: this.text(raw) };
    }
    if (typeof raw === 'number' || typeof raw === 'boolean') {
      return { kind: 'text', text: String(raw) };
    }
    if (Array.isArray(raw)) {
      const items: TechnicalValue[] = [];
      for (const item of raw) {
        if (!this.take(depth + 1, item)) continue;
        items.push(this.value(item, depth + 1));
      }
      return { kind: 'list', items };
    }
    if (isPlainObject(raw)) return { kind: 'group', entries: this.entries(raw, depth + 1) };
    return { kind: 'text', text: this.text(String(raw)) };
  }

  /** Whether one more value at this depth fits; counts what does not. */
  private take(depth: number, raw: unknown): boolean {
    if (this.left > 0 && depth <= this.limits.maxDepth) {
      this.left--;
      return true;
    }
    this.omitted += countValues(raw);
    return false;
  }

  entries(raw: Record<string, unknown>, depth: number): TechnicalEntry[] {
    const out: TechnicalEntry[] = [];
    for (const [key, item] of Object.entries(raw)) {
      if (!this.take(depth, item)) continue;
      const display = isPlainObject(item) ? displayEntry(item) : undefined;
      if (display) {
        const shown = this.value(display.shown, depth);
        out.push({
          key,
          label: this.text(display.label),
          value:
            display.href !== undefined
              ? {
                  kind: 'link',
                  href: display.href,
                  text: shown.kind === 'text' || shown.kind === 'link' ? shown.text : display.href,
                }
              : shown,
        });
      } else {
        out.push({ key, label: words(key), value: this.value(item, depth) });
      }
    }
    return out;
  }
}

/** Values in `raw` (itself included), counted without recursion so any depth is safe. */
function countValues(raw: unknown): number {
  let count = 0;
  const stack: unknown[] = [raw];
  while (stack.length > 0 && count < 1_000_000) {
    const value = stack.pop();
    count++;
    if (Array.isArray(value)) stack.push(...value);
    else if (isPlainObject(value)) stack.push(...Object.values(value));
  }
  return count;
}

/**
 * A tech adapter's `publicInfo` (from the provisioning result) as labelled entries for people:
 * entries written in the adapters' display convention (`{ type, label, value, href }`) keep their
 * label, `http(s)` URLs become links, nested objects and lists stay nested, and everything is
 * bounded by `limits` (what is left out is counted in `omitted`).
 *
 * @example
 * technicalInformation({ dashboard: { type: 'link', label: 'Dashboard', value: 'Grafana', href: 'https://grafana.example/d/1' }, tableName: 'orders' });
 * // { entries: [{ key: 'dashboard', label: 'Dashboard', value: { kind: 'link', href: 'https://grafana.example/d/1', text: 'Grafana' } },
 * //             { key: 'tableName', label: 'Table name', value: { kind: 'text', text: 'orders' } }], omitted: 0 }
 */
export function technicalInformation(
  publicInfo: Record<string, unknown>,
  limits: Partial<TechnicalInformationLimits> = {},
): TechnicalInformation {
  const builder = new Builder({ ...DEFAULT_LIMITS, ...limits });
  const entries = builder.entries(publicInfo, 1);
  return { entries, omitted: builder.omitted };
}
