import { z } from 'zod';

const sourceId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" or "-", at most 64');

// Credentials in a URL are never sent (fetch refuses such a URL: every call would fail) and would
// show wherever the URL is logged: they belong in `upstreamAuth`, read from the environment.
const httpUrl = z.url({ protocol: /^https?$/ }).refine(
  (u) => {
    const url = new URL(u);
    return url.username === '' && url.password === '';
  },
  {
    message:
      'a URL with a user name or password in it is refused: remove them and configure upstreamAuth.basic (username or usernameFromEnv, and passwordFromEnv naming an environment variable)',
  },
);

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'the name of an environment variable (letters, digits, "_")');

// Headers passthrough sets itself, and hop-by-hop headers, cannot be configured.
const RESERVED_HEADERS = new Set([
  'accept',
  'connection',
  'content-length',
  'content-type',
  'host',
  'keep-alive',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'x-request-id',
]);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Credentials sent to a source's upstream (GraphDB, Stardog, a Neptune proxy…): HTTP Basic,
 * a Bearer token and/or custom headers. Only the *names* of environment variables are
 * configured; their values are read once at start-up, and a variable that is not set stops it.
 *
 * @example
 * UpstreamAuthSchema.parse({ bearer: { tokenFromEnv: 'STARDOG_TOKEN' }, headers: { 'X-Api-Key': { fromEnv: 'PROXY_KEY' } } });
 */
export const UpstreamAuthSchema = z
  .object({
    basic: z
      .object({
        username: z.string().min(1).optional(),
        usernameFromEnv: envName.optional(),
        passwordFromEnv: envName,
      })
      .strict()
      .refine((b) => (b.username === undefined) !== (b.usernameFromEnv === undefined), {
        message: 'give exactly one of username and usernameFromEnv',
      })
      .refine((b) => !b.username?.includes(':'), {
        message: 'a Basic user name cannot contain ":"',
        path: ['username'],
      })
      .optional(),
    bearer: z.object({ tokenFromEnv: envName }).strict().optional(),
    headers: z.record(z.string(), z.object({ fromEnv: envName }).strict()).optional(),
  })
  .strict()
  .superRefine((auth, ctx) => {
    if (auth.basic && auth.bearer) {
      ctx.addIssue({ code: 'custom', path: ['bearer'], message: 'give basic or bearer, not both' });
    }
    const given = Object.keys(auth.headers ?? {});
    const names = given.map((name) => name.toLowerCase());
    names.forEach((name, index) => {
      const path = ['headers', given[index] ?? name];
      if (!HEADER_NAME.test(name)) {
        ctx.addIssue({ code: 'custom', path, message: 'not an HTTP header name' });
      } else if (RESERVED_HEADERS.has(name)) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: 'set by passthrough itself (or hop-by-hop): it cannot be configured',
        });
      }
      if (names.indexOf(name) !== index) {
        ctx.addIssue({ code: 'custom', path: ['headers'], message: `header ${name} given twice` });
      }
      if (name === 'authorization' && (auth.basic || auth.bearer)) {
        ctx.addIssue({
          code: 'custom',
          path: ['headers'],
          message: 'Authorization is already set by basic or bearer',
        });
      }
    });
  });

/** Upstream credentials of a source, as configured (names of environment variables). */
export type UpstreamAuth = z.infer<typeof UpstreamAuthSchema>;

/**
 * One knowledge source: where its knowledge comes from and which modes it serves.
 * `sparqlEndpoint`, `searchEndpoint` and `defaultGraphUri` let passthrough talk to a plain
 * SPARQL server (e.g. Virtuoso) instead of a dcg source adapter; `upstreamAuth` names the
 * secrets it needs.
 *
 * @example
 * SourceConfigSchema.parse({ id: 'demo', name: 'Demo', modes: { ingestion: { enabled: true }, passthrough: { enabled: false } } });
 */
export const SourceConfigSchema = z
  .object({
    id: sourceId,
    name: z.string().min(1),
    baseUrl: httpUrl.optional(),
    sparqlEndpoint: httpUrl.optional(),
    searchEndpoint: httpUrl.optional(),
    defaultGraphUri: z.string().min(1).optional(),
    upstreamAuth: UpstreamAuthSchema.optional(),
    modes: z
      .object({
        ingestion: z
          .object({
            enabled: z.boolean(),
            schedule: z.string().min(1).optional(),
          })
          .strict(),
        passthrough: z.object({ enabled: z.boolean() }).strict(),
      })
      .strict(),
  })
  .strict();

/** A configured knowledge source. */
export type SourceConfig = z.infer<typeof SourceConfigSchema>;

/** Default searchable predicates and weights: labels rank above definitions and comments. */
export const DEFAULT_SEARCH_PREDICATES: ReadonlyArray<{ iri: string; weight: number }> = [
  { iri: 'http://www.w3.org/2004/02/skos/core#prefLabel', weight: 3 },
  { iri: 'http://www.w3.org/2000/01/rdf-schema#label', weight: 3 },
  { iri: 'http://www.w3.org/2004/02/skos/core#altLabel', weight: 2 },
  { iri: 'http://www.w3.org/2004/02/skos/core#hiddenLabel', weight: 1.5 },
  { iri: 'http://www.w3.org/2004/02/skos/core#definition', weight: 1 },
  { iri: 'http://purl.org/dc/terms/description', weight: 1 },
  { iri: 'http://www.w3.org/2000/01/rdf-schema#comment', weight: 0.8 },
];

/**
 * Search configuration: the literal predicates that are searchable and their weights.
 *
 * @example
 * SearchConfigSchema.parse({}).predicates.length; // 7 (the defaults)
 */
export const SearchConfigSchema = z
  .object({
    predicates: z
      .array(z.object({ iri: z.url(), weight: z.number().positive().max(100) }).strict())
      .min(1)
      .default(() => DEFAULT_SEARCH_PREDICATES.map((p) => ({ ...p }))),
  })
  .strict();

/** Search configuration. */
export type SearchConfig = z.infer<typeof SearchConfigSchema>;

/**
 * The sources list: ids must be unique.
 *
 * @example
 * SourcesConfigSchema.safeParse([{ id: 'a', ... }, { id: 'a', ... }]).success; // false
 */
export const SourcesConfigSchema = z.array(SourceConfigSchema).superRefine((sources, ctx) => {
  const seen = new Set<string>();
  sources.forEach((source, index) => {
    if (seen.has(source.id)) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'id'],
        message: `duplicate source id "${source.id}"`,
      });
    }
    seen.add(source.id);
  });
});
