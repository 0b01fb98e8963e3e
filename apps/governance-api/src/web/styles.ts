/**
 * The one stylesheet of the marketplace pages, inlined so the pages load no external asset.
 * Colours keep a contrast of at least 4.5:1 against their background (WCAG AA), and the status
 * never relies on colour alone: every badge carries an icon and a word.
 *
 * @example
 * const head = `<style>${MARKETPLACE_STYLES}</style>`;
 */
export const MARKETPLACE_STYLES = `
:root{color-scheme:light;--fg:#1f2933;--muted:#52606d;--line:#d9e2ec;--bg:#f7f9fb;--card:#fff;--link:#0b5cad;
--ok-fg:#0a5c2a;--ok-bg:#e3f5e9;--bad-fg:#9b1c1c;--bad-bg:#fde8e8;--warn-fg:#6b4100;--warn-bg:#fff1cc;--unk-fg:#3e4c59;--unk-bg:#e4e7eb}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
a:focus-visible,summary:focus-visible,button:focus-visible,select:focus-visible{outline:3px solid #f0b429;outline-offset:2px}
.skip-link{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem}
.skip-link:focus{left:1rem}
.site-header{background:#102a43;color:#fff;padding:.75rem 1.5rem}
.site-header a{color:#fff;text-decoration:none;font-weight:600}
.breadcrumb ol{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem}
.breadcrumb li+li::before{content:"/";margin-right:.25rem;color:#9fb3c8}
.breadcrumb [aria-current]{font-weight:400;color:#d9e2ec;word-break:break-all}
main{max-width:72rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.6rem;margin:0 0 .75rem;word-break:break-word}
h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
h3{font-size:1.05rem;margin:1rem 0 .5rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:#eef2f7;padding:.05rem .3rem;border-radius:3px;word-break:break-all}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin:0 0 1rem}
.card>h2:first-child{margin-top:0}
.card:target{outline:3px solid var(--link);outline-offset:2px}
.badge{display:inline-flex;align-items:center;gap:.4rem;border-radius:999px;padding:.2rem .75rem;font-weight:600;font-size:.95rem;border:1px solid currentColor;white-space:nowrap}
.badge-large{font-size:1.1rem;padding:.35rem 1rem}
.badge-compliant{color:var(--ok-fg);background:var(--ok-bg)}
.badge-violated{color:var(--bad-fg);background:var(--bad-bg)}
.badge-unprocessable{color:var(--warn-fg);background:var(--warn-bg)}
.badge-unknown{color:var(--unk-fg);background:var(--unk-bg)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0}
.facts dt{color:var(--muted)}
.facts dd{margin:0;word-break:break-all}
.summary{border-left:4px solid var(--bad-fg);background:var(--bad-bg);padding:.75rem 1rem;border-radius:4px}
.alert{border:1px solid var(--warn-fg);background:var(--warn-bg);color:#3d2600;border-radius:8px;padding:1rem 1.25rem}
.alert h2{margin-top:0}
.schema-errors li{margin:.25rem 0}
.schema-errors .where{font-weight:600}
.override{border-left:4px solid var(--warn-fg);background:var(--warn-bg);padding:.75rem 1rem;border-radius:4px}
.timeline{list-style:none;margin:0;padding:0 0 0 .25rem;border-left:2px solid var(--line)}
.timeline li{position:relative;padding:.3rem 0 .3rem 1rem}
.timeline li::before{content:"";position:absolute;left:-7px;top:.85rem;width:12px;height:12px;border-radius:50%;background:var(--line)}
.timeline .change{font-weight:600}
.tech-info h3{margin-top:.75rem}
.tech-values,.tech-values dl{display:grid;grid-template-columns:minmax(6rem,max-content) 1fr;gap:.2rem 1rem;margin:0}
.tech-values dt{color:var(--muted)}
.tech-values dd{margin:0;word-break:break-word;min-width:0}
.tech-values dl{padding-left:.75rem;border-left:2px solid var(--line)}
.tech-values ul{margin:0;padding-left:1.25rem}
.component{border-top:1px solid var(--line);padding-top:.75rem;margin-top:.75rem}
.component:target{outline:3px solid var(--link);outline-offset:2px}
.policy-description{white-space:pre-line}
.tree,.tree ul{list-style:none;margin:0;padding:0}
.tree ul{padding-left:1.25rem;border-left:2px solid var(--line);margin-left:.5rem}
.tree ul.flat{padding-left:0;margin-left:0;border-left:0}
.tree .depth{font-size:.8em;font-weight:400;color:var(--muted);border:1px solid var(--line);border-radius:3px;padding:0 .3rem}
.tree li{margin:.35rem 0}
.tree summary{cursor:pointer;font-weight:600}
.tree .section-state{font-weight:400;color:var(--muted);margin-left:.5rem}
.tree .section-failing>details>summary .section-state{color:var(--bad-fg);font-weight:600}
.requirement{display:grid;grid-template-columns:auto 1fr;gap:0 .5rem;align-items:start}
.verdict{font-weight:600;white-space:nowrap}
.requirement-failing .verdict{color:var(--bad-fg)}
.requirement-compliant .verdict{color:var(--ok-fg)}
.requirement-warning .verdict{color:var(--warn-fg)}
.requirement-not-checked .verdict{color:var(--unk-fg)}
.node-key{color:var(--muted);font-weight:400;font-size:.85em}
.node-description{color:var(--muted);margin:.1rem 0 0;font-size:.95em}
.issues{grid-column:2;margin:.25rem 0 .25rem;padding:.4rem .75rem .4rem 1.75rem;background:var(--bad-bg);border-radius:4px;color:#5c1010}
.filter{display:flex;flex-wrap:wrap;align-items:end;gap:.75rem;margin:0 0 1rem}
.filter label{display:block;font-weight:600}
.filter select,.filter button,.filter input{font:inherit;padding:.3rem .6rem}
.filter input[type=search]{min-width:18rem;max-width:100%}
.match{font-style:italic}
.pages{display:flex;gap:1rem;align-items:center;margin:1rem 0}
.instances{list-style:none;margin:0;padding:0}
.instance-meta{color:var(--muted);margin:0 0 .5rem}
table{border-collapse:collapse;width:100%;table-layout:fixed}
thead th:first-child{width:45%}
thead th:nth-child(2){width:15%}
td .badge{white-space:normal}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.9rem;color:var(--muted)}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.muted{color:var(--muted)}
@media (prefers-color-scheme:dark){
:root{color-scheme:dark;--fg:#e4e7eb;--muted:#a7b1bc;--line:#3e4c59;--bg:#0f1720;--card:#17212b;--link:#8cc8ff;
--ok-fg:#8ee2a8;--ok-bg:#0f2e1c;--bad-fg:#ffb4b4;--bad-bg:#3a1515;--warn-fg:#ffd27a;--warn-bg:#352706;--unk-fg:#d3d9df;--unk-bg:#2a333d}
code{background:#243140}
.alert{color:var(--warn-fg)}
.issues{color:var(--bad-fg)}
.skip-link{background:var(--card)}
}
@media (max-width:40rem){
main{padding:1rem}
.card{padding:.75rem}
table,tbody,tr,th,td{display:block;width:auto}
thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
tbody tr{border-bottom:1px solid var(--line);padding:.5rem 0}
th,td{border:0;padding:.15rem 0}
td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.9rem}
.badge{white-space:normal}
.tech-values,.tech-values dl{grid-template-columns:1fr}
}
`;
