import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { sample } from 'openapi-sampler';
import { pageShell, pageShellStyleSource } from './page-shell';

/** The styles the reference adds to the shared page shell. */
const REFERENCE_STYLES = `
.toc ul{padding-left:1.25rem;margin:.25rem 0 .75rem}
.toc li{margin:.15rem 0}
.operation{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin:0 0 1rem}
.operation h3{margin-top:0;display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}
.method{display:inline-block;min-width:4.5rem;text-align:center;font:600 .85rem ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;padding:.1rem .4rem;border-radius:4px;border:1px solid currentColor}
.method-get{color:#0a5c2a}.method-post{color:#0b5cad}.method-put,.method-patch{color:#6b4100}.method-delete{color:#9b1c1c}
.path{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all}
.op-summary{font-weight:400}
.response h5{margin:.75rem 0 .25rem;font-size:1rem}
.operation pre{max-height:24rem}
.operation table{margin:.25rem 0 .75rem;table-layout:fixed}
.operation th,.operation td{overflow-wrap:anywhere}
@media (max-width:40rem){.operation{padding:.75rem}
.operation table,.operation tbody,.operation tr,.operation th,.operation td{display:block;width:auto}
.operation thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
.operation tbody tr{border-bottom:1px solid var(--line);padding:.4rem 0}
.operation th,.operation td{border:0;padding:.1rem 0}
.operation td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.9rem}}
@media (prefers-color-scheme:dark){.method-get{color:#8ee2a8}.method-post{color:#8cc8ff}.method-put,.method-patch{color:#ffd27a}.method-delete{color:#ffb4b4}}
`;

const DOCS_CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'none'"],
  styleSrc: [pageShellStyleSource(REFERENCE_STYLES)],
  imgSrc: ['data:'],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
/** Descriptions are Markdown; shown as text, with `code` spans kept. */
const prose = (value: unknown) =>
  typeof value === 'string'
    ? escapeHtml(value).replace(/`([^`]+)`/g, (_m, code: string) => `<code>${code}</code>`)
    : '';

/** One operation of the document, as the reference lists it. */
export interface ReferenceOperation {
  method: string;
  path: string;
  operation: Json;
  tag: string;
  anchor: string;
}

/**
 * The operations of an OpenAPI document, grouped by their first tag in document order.
 *
 * @example
 * const operations = referenceOperations(document);
 */
export function referenceOperations(document: unknown): ReferenceOperation[] {
  const paths = isObject(document) && isObject(document.paths) ? document.paths : {};
  const out: ReferenceOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const tags = Array.isArray(operation.tags) ? operation.tags : [];
      const id =
        typeof operation.operationId === 'string' ? operation.operationId : `${method}-${path}`;
      out.push({
        method,
        path,
        operation,
        tag: typeof tags[0] === 'string' ? tags[0] : 'other',
        anchor: `op-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`,
      });
    }
  }
  return out;
}

/** Follows a local `$ref` (`#/components/...`) of the document. */
function resolve(document: unknown, value: unknown): unknown {
  let current = value;
  for (
    let depth = 0;
    depth < 10 && isObject(current) && typeof current.$ref === 'string';
    depth++
  ) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) return current;
    let target: unknown = document;
    for (const part of ref.slice(2).split('/')) {
      target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    current = target;
  }
  return current;
}

/**
 * An example of a media type: its own `example` or first `examples` entry, else one generated from
 * its schema by openapi-sampler (undefined without a schema).
 *
 * @example
 * exampleOf(document, { schema: { $ref: '#/components/schemas/Problem' } });
 */
export function exampleOf(document: unknown, media: unknown): unknown {
  if (!isObject(media)) return undefined;
  if (media.example !== undefined) return media.example;
  if (isObject(media.examples)) {
    const first = resolve(document, Object.values(media.examples)[0]);
    if (isObject(first) && first.value !== undefined) return first.value;
  }
  if (!isObject(media.schema)) return undefined;
  try {
    return sample(media.schema as never, { skipReadOnly: false, quiet: true }, document as object);
  } catch {
    return undefined;
  }
}

function exampleBlock(contentType: string, example: unknown): string {
  const text =
    typeof example === 'string' && !contentType.includes('json')
      ? example
      : JSON.stringify(example, null, 2);
  return `<pre tabindex="0" aria-label="Example ${escapeHtml(contentType)}"><code>${escapeHtml(text ?? '')}</code></pre>`;
}

function parametersTable(document: unknown, parameters: unknown[]): string {
  const rows = parameters
    .map((p) => resolve(document, p))
    .filter(isObject)
    .map((p) => {
      const schema = resolve(document, p.schema);
      const type = isObject(schema)
        ? String(schema.type ?? (Array.isArray(schema.enum) ? 'enum' : ''))
        : '';
      return `<tr><th scope="row"><code>${escapeHtml(String(p.name))}</code></th><td data-label="In">${escapeHtml(String(p.in))}</td><td data-label="Type">${escapeHtml(type)}</td><td data-label="Required">${p.required ? 'required' : 'optional'}</td><td>${prose(p.description)}</td></tr>`;
    });
  if (rows.length === 0) return '';
  return `<h4>Parameters</h4><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function operationSection(document: unknown, op: ReferenceOperation): string {
  const { operation } = op;
  const security = Array.isArray(operation.security) ? operation.security : undefined;
  const access =
    security === undefined
      ? ''
      : security.length === 0
        ? '<p class="muted">Public: no key needed.</p>'
        : `<p class="muted">Needs ${escapeHtml(
            security
              .filter(isObject)
              .flatMap((s) => Object.keys(s))
              .join(' or '),
          )}.</p>`;
  const body = resolve(document, operation.requestBody);
  let request = '';
  if (isObject(body) && isObject(body.content)) {
    const [type, media] = Object.entries(body.content)[0] ?? [];
    if (type !== undefined) {
      const example = exampleOf(document, media);
      request = `<h4>Request body <code>${escapeHtml(type)}</code>${body.required ? '' : ' (optional)'}</h4>${prose(body.description) ? `<p>${prose(body.description)}</p>` : ''}${example === undefined ? '' : exampleBlock(type, example)}`;
    }
  }
  const responses = isObject(operation.responses) ? operation.responses : {};
  const answers = Object.entries(responses).map(([status, raw]) => {
    const response = resolve(document, raw);
    if (!isObject(response)) return '';
    const content = isObject(response.content) ? Object.entries(response.content) : [];
    const [type, media] = content[0] ?? [];
    const example = type === undefined ? undefined : exampleOf(document, media);
    return `<div class="response"><h5><code>${escapeHtml(status)}</code> ${prose(response.description)}</h5>${
      type === undefined
        ? '<p class="muted">No body.</p>'
        : example === undefined
          ? `<p class="muted">Body <code>${escapeHtml(type)}</code>.</p>`
          : exampleBlock(type, example)
    }</div>`;
  });
  return `<section class="operation" id="${escapeHtml(op.anchor)}" aria-labelledby="${escapeHtml(op.anchor)}-h">
<h3 id="${escapeHtml(op.anchor)}-h"><span class="method method-${op.method}">${op.method.toUpperCase()}</span> <span class="path">${escapeHtml(op.path)}</span></h3>
${operation.summary ? `<p class="op-summary"><strong>${prose(operation.summary)}</strong></p>` : ''}
${operation.description ? `<p>${prose(operation.description)}</p>` : ''}
${access}
${parametersTable(document, Array.isArray(operation.parameters) ? operation.parameters : [])}
${request}
<h4>Responses</h4>
${answers.join('\n')}
</section>`;
}

/**
 * The reference page of an OpenAPI document, rendered on the server: the operations grouped by
 * tag with a table of contents, each with its parameters, a request example and an example of
 * every response that has a body (the document's own, else generated from the schema by
 * openapi-sampler). No script, no external asset.
 *
 * @example
 * const html = renderApiReference(document, { title: 'dcg kg-api', specUrl: '/openapi.json' });
 */
export function renderApiReference(
  document: unknown,
  options: { title: string; specUrl: string },
): string {
  const info = isObject(document) && isObject(document.info) ? document.info : {};
  const operations = referenceOperations(document);
  const tags: string[] = [];
  for (const op of operations) if (!tags.includes(op.tag)) tags.push(op.tag);
  const toc = tags
    .map(
      (tag) =>
        `<li>${escapeHtml(tag)}<ul>${operations
          .filter((op) => op.tag === tag)
          .map(
            (op) =>
              `<li><a href="#${escapeHtml(op.anchor)}"><code>${op.method.toUpperCase()} ${escapeHtml(op.path)}</code></a></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');
  const groups = tags
    .map(
      (tag, i) =>
        `<section aria-labelledby="tag-${i}"><h2 id="tag-${i}">${escapeHtml(tag)}</h2>\n${operations
          .filter((op) => op.tag === tag)
          .map((op) => operationSection(document, op))
          .join('\n')}</section>`,
    )
    .join('\n');
  const main = `<h1>${escapeHtml(options.title)} API reference</h1>
<p>${prose(info.description)}</p>
<p class="muted">Version ${escapeHtml(String(info.version ?? ''))} · <a href="${escapeHtml(options.specUrl)}" type="application/json">OpenAPI document (JSON)</a> · ${operations.length} operations</p>
<nav class="toc" aria-label="Operations"><h2>Operations</h2><ul>${toc}</ul></nav>
${groups}`;
  return pageShell({
    title: 'API reference',
    site: options.title,
    breadcrumbs: [{ label: options.title, href: '/' }, { label: 'API reference' }],
    main,
    styles: REFERENCE_STYLES,
    jsonHref: options.specUrl,
  });
}

/**
 * The API reference page of an app (`/docs`), server-rendered from its OpenAPI document (see
 * {@link renderApiReference}), rendered once on the first request.
 *
 * @example
 * const document = serveOpenApiDocument(app, options);
 * app.route('/docs', apiReference({ specUrl: '/openapi.json', title: 'dcg kg-api', document }));
 */
export function apiReference(options: {
  specUrl: string;
  title: string;
  /** The app's OpenAPI document (what `serveOpenApiDocument` returns). */
  document: () => unknown;
}): Hono {
  let page: string | undefined;
  const app = new Hono();
  app.use(
    secureHeaders({
      contentSecurityPolicy: DOCS_CONTENT_SECURITY_POLICY,
      xFrameOptions: 'DENY',
      strictTransportSecurity: false,
    }),
  );
  app.get('/', (c) => {
    page ??= renderApiReference(options.document(), options);
    return c.html(page);
  });
  return app;
}
