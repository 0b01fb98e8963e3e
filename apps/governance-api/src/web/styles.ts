/**
 * The marketplace's own rules, appended to the shared page shell's stylesheet
 * (`PAGE_SHELL_STYLES` of `@dcg/http-kit`) in one inline stylesheet. Colours keep a contrast of at least 4.5:1 against their background (WCAG AA), and the status
 * never relies on colour alone: every badge carries an icon and a word.
 *
 * @example
 * const css = PAGE_SHELL_STYLES + MARKETPLACE_STYLES;
 */
export const MARKETPLACE_STYLES = `
.badge{display:inline-flex;align-items:center;gap:.4rem;border-radius:999px;padding:.2rem .75rem;font-weight:600;font-size:.95rem;border:1px solid currentColor;white-space:nowrap}
.badge-large{font-size:1.1rem;padding:.35rem 1rem}
.badge-compliant{color:var(--ok-fg);background:var(--ok-bg)}
.badge-violated{color:var(--bad-fg);background:var(--bad-bg)}
.badge-unprocessable{color:var(--warn-fg);background:var(--warn-bg)}
.badge-unknown{color:var(--unk-fg);background:var(--unk-bg)}
.summary{border-left:4px solid var(--bad-fg);background:var(--bad-bg);padding:.75rem 1rem;border-radius:4px}
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
.instance-state{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:0 0 .5rem}
.instance-state p{margin:0}
.system-description{margin:.25rem 0 .5rem}
.ownership{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:0 0 .5rem}
.ownership div{display:flex;gap:.4rem}
.ownership dt{color:var(--muted)}
.ownership dd{margin:0;font-weight:600}
.state-summary{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 1rem;padding:0}
.state-summary a{display:inline-block;padding:.2rem .75rem;border:1px solid var(--line);border-radius:999px;background:var(--card);text-decoration:none}
.state-summary a[aria-current]{border-color:var(--link);font-weight:600;outline:2px solid var(--link)}
.contract-schema td,.contract-schema th{word-break:break-word}
.outcome-list{margin:0;padding-left:1.1rem}
.outcome-failing{color:var(--bad-fg);font-weight:600}
.outcome-compliant{color:var(--ok-fg)}
.outcome-warning{color:var(--warn-fg)}
.pages{display:flex;gap:1rem;align-items:center;margin:1rem 0}
.instances{list-style:none;margin:0;padding:0}
.instance-meta{color:var(--muted);margin:0 0 .5rem}
.instances table{table-layout:fixed}
.instances thead th:first-child{width:45%}
.instances thead th:nth-child(2){width:15%}
td .badge{white-space:normal}
@media (prefers-color-scheme:dark){
.issues{color:var(--bad-fg)}
}
@media (max-width:40rem){
table,tbody,tr,th,td{display:block;width:auto}
thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
tbody tr{border-bottom:1px solid var(--line);padding:.5rem 0}
th,td{border:0;padding:.15rem 0}
td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.9rem}
.badge{white-space:normal}
.tech-values,.tech-values dl{grid-template-columns:1fr}
}
`;
