import { SYNONYM_WEIGHT, TYPO_WEIGHT } from '@dcg/marketplace-search';
import { marketplaceHref } from './marketplace-links';
import { type Markup, markup } from './markup';
import { pageLayout } from './page-layout';

/** Where the note lives: linked from every search result list and from the search API's docs. */
export const SEARCH_HELP_PATH = '/marketplace/how-search-ranks';

/**
 * "How search ranks": the plain-words account of the one ranking that the page, the search API
 * and the MCP tool share (`@dcg/marketplace-search`), so a reader can tell why a hit is there and
 * why it stands above another. The weights quoted are the package's own constants.
 *
 * @example
 * const page = searchHelpPage();
 */
export function searchHelpPage(): Markup {
  const percent = (weight: number) => `${Math.round(weight * 100)} %`;
  return pageLayout({
    title: 'How search ranks',
    breadcrumbs: [{ label: 'Marketplace', href: marketplaceHref() }, { label: 'How search ranks' }],
    main: markup`<h1>How search ranks</h1>
<section class="card" aria-labelledby="order-heading">
<h2 id="order-heading">What comes first</h2>
<ol>
<li><strong>The name or URN you typed.</strong> A query that is a system's URN, or exactly its name, puts that system first: whoever types an identifier means it.</li>
<li><strong>Found by words and by meaning.</strong> Every other system gets a place in two rankings, one by words and one by meaning. Its final place adds up its places in both (reciprocal rank fusion), so a system that both rankings put high comes before one that only one of them found.</li>
</ol>
</section>
<section class="card" aria-labelledby="words-heading">
<h2 id="words-heading">By words</h2>
<p>The words of the query are looked up in each system's name (which counts three times), its domain, kind and tags (twice), and its description and components (once). Rare words count more than common ones, and a word found in a short description counts more than the same word in a long one (BM25).</p>
<p>Accents and case do not matter. A word that no system uses is read as a typo of a word that one does (one letter off, or two for long words) and counts ${percent(TYPO_WEIGHT)} of a word as typed; the result then suggests the correction ("did you mean"). Its synonyms from a thesaurus (WordNet) count ${percent(SYNONYM_WEIGHT)}.</p>
</section>
<section class="card" aria-labelledby="meaning-heading">
<h2 id="meaning-heading">By meaning</h2>
<p>Each system's text is turned into a vector by an embedding model, and so is the query; systems whose vector points in nearly the same direction are close in meaning, whatever words they use ("money owed by clients" finds "amounts that clients still owe us"). Similarity is 1 for the same meaning and near 0 for unrelated text.</p>
<p>While the vectors are being computed, or when embeddings are turned off, the search answers by words only and says so above the results.</p>
</section>
<section class="card" aria-labelledby="cut-heading">
<h2 id="cut-heading">What is left out</h2>
<p>A system that matches none of the query's words and is not close enough in meaning (below the model's calibrated similarity) is not shown: a short list of likely answers is more use than every system in a different order.</p>
<p>Each hit says why it is there: the words it matched (and through which typo or synonym), how close it is in meaning, and its place in each ranking.</p>
</section>
<p>The same ranking answers the search API (<code>GET /v1/marketplace/search</code>) and the assistants' <code>search_marketplace</code> tool. <a href="${marketplaceHref()}">Back to the marketplace</a></p>`,
  });
}
