import { createHash } from 'node:crypto';

/** One step of the breadcrumb trail; the last one is the current page and has no link. */
export interface PageShellBreadcrumb {
  label: string;
  href?: string;
}

/** What a server-rendered page of a dcg app gives the shell. */
export interface PageShellOptions {
  /** Document title, before ` · ${site}` (read first by screen readers). */
  title: string;
  /** The product the page belongs to, shown first in the header (`dcg marketplace`, `dcg MCP server`). */
  site: string;
  /** Where the site name links (default: no link). */
  siteHref?: string;
  /** Breadcrumb trail after the site name; the last entry is the current page. */
  breadcrumbs?: readonly PageShellBreadcrumb[];
  /** The page's content, already escaped HTML: it goes into the one `<main>` landmark. */
  main: string;
  /** CSS of the page kind, appended to {@link PAGE_SHELL_STYLES} in the same inline stylesheet. */
  styles?: string;
  /** `narrow` for forms (sign-in, consent), `wide` (default) for catalogs and references. */
  width?: 'narrow' | 'wide';
  /** A machine-readable twin of the page (`<link rel="alternate" type="application/json">`). */
  jsonHref?: string;
}

/**
 * The stylesheet every server-rendered dcg page starts from: colours with a contrast of at least
 * 4.5:1 on their background (WCAG AA) in light and dark schemes, visible focus, a skip link, the
 * header with breadcrumbs, cards, facts, alerts and forms, and a layout that holds at 390 px.
 *
 * @example
 * const css = `${PAGE_SHELL_STYLES}.mine{color:var(--muted)}`;
 */
export const PAGE_SHELL_STYLES = `
:root{color-scheme:light;--fg:#1f2933;--muted:#52606d;--line:#d9e2ec;--bg:#f7f9fb;--card:#fff;--link:#0b5cad;--accent:#0b5cad;--accent-fg:#fff;
--ok-fg:#0a5c2a;--ok-bg:#e3f5e9;--bad-fg:#9b1c1c;--bad-bg:#fde8e8;--warn-fg:#6b4100;--warn-bg:#fff1cc;--unk-fg:#3e4c59;--unk-bg:#e4e7eb}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
a:focus-visible,summary:focus-visible,button:focus-visible,select:focus-visible,input:focus-visible{outline:3px solid #f0b429;outline-offset:2px}
.skip-link{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem}
.skip-link:focus{left:1rem}
.site-header{background:#102a43;color:#fff;padding:.75rem 1.5rem}
.site-header a{color:#fff;text-decoration:none;font-weight:600}
.site-line{margin:0}
.breadcrumb ol{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem}
.breadcrumb li+li::before{content:"/";margin-right:.25rem;color:#9fb3c8}
.breadcrumb [aria-current]{font-weight:400;color:#d9e2ec;word-break:break-all}
main{max-width:72rem;margin:0 auto;padding:1.5rem}
main.narrow{max-width:34rem}
h1{font-size:1.6rem;margin:0 0 .75rem;word-break:break-word}
h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
h3{font-size:1.05rem;margin:1rem 0 .5rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:#eef2f7;padding:.05rem .3rem;border-radius:3px;word-break:break-all}
pre{background:#eef2f7;padding:.75rem;border-radius:6px;overflow:auto;max-width:100%}
pre code{background:none;padding:0;word-break:normal}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin:0 0 1rem}
.card>h2:first-child{margin-top:0}
.card:target{outline:3px solid var(--link);outline-offset:2px}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0}
.facts dt{color:var(--muted)}
.facts dd{margin:0;word-break:break-word}
.alert{border:1px solid var(--warn-fg);background:var(--warn-bg);color:#3d2600;border-radius:8px;padding:1rem 1.25rem}
.alert h2{margin-top:0}
.error{color:var(--bad-fg);font-weight:600}
.warning{border-left:4px solid var(--warn-fg);background:var(--warn-bg);color:#3d2600;padding:.5rem .75rem;border-radius:4px}
.note,.muted{color:var(--muted)}
.note{font-size:.9rem}
form.stacked label{display:block;margin:.75rem 0;font-weight:600}
form.stacked input{display:block;width:100%;margin-top:.25rem;padding:.5rem;font:inherit;border:1px solid #7b8794;border-radius:4px;background:var(--card);color:var(--fg)}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1rem}
.actions form{margin:0}
button{font:inherit;padding:.5rem 1.25rem;border-radius:4px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer}
button.secondary{background:var(--card);color:var(--fg);border-color:#7b8794}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.9rem;color:var(--muted)}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
@media (prefers-color-scheme:dark){
:root{color-scheme:dark;--fg:#e4e7eb;--muted:#a7b1bc;--line:#3e4c59;--bg:#0f1720;--card:#17212b;--link:#8cc8ff;--accent:#8cc8ff;--accent-fg:#0f1720;
--ok-fg:#8ee2a8;--ok-bg:#0f2e1c;--bad-fg:#ffb4b4;--bad-bg:#3a1515;--warn-fg:#ffd27a;--warn-bg:#352706;--unk-fg:#d3d9df;--unk-bg:#2a333d}
code,pre{background:#243140}
.alert,.warning{color:var(--warn-fg)}
.skip-link{background:var(--card)}
}
@media (max-width:40rem){
main{padding:1rem}
.card{padding:.75rem}
.site-header{padding:.75rem 1rem}
}
`;

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The CSP source that allows exactly the inline stylesheet of a page built with these `styles`.
 *
 * @example
 * const csp = `default-src 'none'; style-src ${pageShellStyleSource(MY_STYLES)}`;
 */
export function pageShellStyleSource(styles = ''): string {
  return `'sha256-${createHash('sha256')
    .update(PAGE_SHELL_STYLES + styles)
    .digest('base64')}'`;
}

/**
 * The HTML document around a server-rendered dcg page (the marketplace, the sign-in and consent
 * pages, the API reference): `lang`, viewport, one inline stylesheet, a skip link, a header with
 * the site name and breadcrumbs, and one `<main>` landmark. No script, no external asset.
 *
 * @example
 * const html = pageShell({ title: 'Sign in', site: 'dcg MCP server', main: '<h1>Sign in</h1>' });
 */
export function pageShell(options: PageShellOptions): string {
  const site =
    options.siteHref === undefined
      ? `<span class="site-name">${escapeHtml(options.site)}</span>`
      : `<a class="site-name" href="${escapeHtml(options.siteHref)}">${escapeHtml(options.site)}</a>`;
  const trail = options.breadcrumbs ?? [];
  const crumbs = trail.map((crumb, index) => {
    const last = index === trail.length - 1;
    if (last || crumb.href === undefined) {
      return `<li${last ? ' aria-current="page"' : ''}>${escapeHtml(crumb.label)}</li>`;
    }
    return `<li><a href="${escapeHtml(crumb.href)}">${escapeHtml(crumb.label)}</a></li>`;
  });
  const header =
    crumbs.length > 0
      ? `<nav class="breadcrumb" aria-label="Breadcrumb"><ol>${crumbs.join('')}</ol></nav>`
      : `<p class="site-line">${site}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
${options.jsonHref === undefined ? '' : `<link rel="alternate" type="application/json" href="${escapeHtml(options.jsonHref)}">\n`}<title>${escapeHtml(options.title)} · ${escapeHtml(options.site)}</title>
<style>${PAGE_SHELL_STYLES}${options.styles ?? ''}</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<header class="site-header">
${header}
</header>
<main id="main" tabindex="-1"${options.width === 'narrow' ? ' class="narrow"' : ''}>
${options.main}
</main>
</body>
</html>
`;
}
