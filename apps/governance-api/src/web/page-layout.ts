import { type Markup, markup, trusted } from './markup';
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
}

/**
 * The HTML document around a marketplace page: language, viewport, inline styles, a skip link,
 * the breadcrumb navigation and one `<main>` landmark.
 *
 * @example
 * const doc = pageLayout({ title: 'Marketplace', breadcrumbs: [{ label: 'Marketplace' }], main: markup`<h1>Marketplace</h1>` });
 */
export function pageLayout(options: PageLayoutOptions): Markup {
  const crumbs = options.breadcrumbs.map((crumb, index) => {
    const last = index === options.breadcrumbs.length - 1;
    if (last || crumb.href === undefined) {
      return markup`<li${last ? trusted(' aria-current="page"') : ''}>${crumb.label}</li>`;
    }
    return markup`<li><a href="${crumb.href}">${crumb.label}</a></li>`;
  });
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${options.title} · dcg marketplace</title>
<style>${trusted(MARKETPLACE_STYLES)}</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<header class="site-header">
<nav class="breadcrumb" aria-label="Breadcrumb"><ol>${crumbs}</ol></nav>
</header>
<main id="main" tabindex="-1">
${options.main}
</main>
</body>
</html>
`;
}
