import { pageShell } from '@dcg/http-kit';
import { type Markup, trusted } from './markup';
import { MARKETPLACE_STYLES } from './styles';

/** One step of the breadcrumb trail; the last one is the current page and has no link. */
export interface Breadcrumb {
  label: string;
  href?: string;
}

/** What every marketplace page needs besides its main content. */
export interface PageLayoutOptions {
  /** Document title (also read first by screen readers). */
  title: string;
  breadcrumbs: Breadcrumb[];
  main: Markup;
  /** The page's JSON twin (the same data as `Accept: application/json` answers). */
  jsonHref?: string;
}

/**
 * The HTML document around a marketplace page: the shared page shell of `@dcg/http-kit` (language,
 * viewport, skip link, breadcrumbs, one `<main>` landmark) with the marketplace's styles.
 *
 * @example
 * const doc = pageLayout({ title: 'Marketplace', breadcrumbs: [{ label: 'Marketplace' }], main: markup`<h1>Marketplace</h1>` });
 */
export function pageLayout(options: PageLayoutOptions): Markup {
  return trusted(
    pageShell({
      title: options.title,
      site: 'dcg marketplace',
      breadcrumbs: options.breadcrumbs,
      main: String(options.main),
      styles: MARKETPLACE_STYLES,
      ...(options.jsonHref === undefined ? {} : { jsonHref: options.jsonHref }),
    }),
  );
}
