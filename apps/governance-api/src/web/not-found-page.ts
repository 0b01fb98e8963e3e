import { marketplaceHref } from './marketplace-links';
import { type Markup, markup } from './markup';
import { pageLayout } from './page-layout';

/**
 * The page answered with 404 for a system or policy the marketplace does not know.
 *
 * @example
 * const page = notFoundPage('System not found', markup`<p>No system …</p>`);
 */
export function notFoundPage(heading: string, explanation: Markup): Markup {
  return pageLayout({
    title: heading,
    breadcrumbs: [{ label: 'Marketplace', href: marketplaceHref() }, { label: heading }],
    main: markup`<h1>${heading}</h1>
<section class="card" aria-label="What happened">
${explanation}
<p><a href="${marketplaceHref()}">Back to the marketplace</a></p>
</section>`,
  });
}
