import type { Options } from 'tsup';

/**
 * The tsup builds this repository uses, written once: each package's `tsup.config.ts` names its
 * entries and whatever is its own. (A change here rebuilds every package: turbo.json lists this
 * file among the build inputs.)
 *
 * @example
 * export default libraryBuild({ entry: ['src/index.ts'], format: ['esm', 'cjs'] });
 */

/** An app's production build: `node dist/main.js`. Workspace packages and dependencies stay
 * external and load from their own `dist` and from node_modules (turbo builds them first). */
export function appBuild(own: Options = {}): Options {
  return {
    entry: { main: 'src/main.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    clean: true,
    splitting: false,
    ...own,
  };
}

/** A library with declarations; ESM only unless `format` says `['esm', 'cjs']`. */
export function libraryBuild(own: Options): Options {
  return {
    format: ['esm'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    ...own,
  };
}

/**
 * A published library with a command-line entry `src/cli.ts`.
 * The library is ESM and CommonJS, each with its own declarations (`.d.ts`, `.d.cts`), so that
 * `import` and `require` resolve to types of their own format under every moduleResolution.
 * The CLI's output is spared by the library's clean (the two builds run in parallel); `cli`
 * starts with a shebang, which tsup keeps, marking dist/cli.js executable. ESM only.
 * `own` applies to both builds (a private package bundled into both, say).
 */
export function libraryWithCliBuild(entry: Record<string, string>, own: Options = {}): Options[] {
  return [
    libraryBuild({ entry, format: ['esm', 'cjs'], clean: ['!cli.js', '!cli.js.map'], ...own }),
    libraryBuild({ ...own, entry: { cli: 'src/cli.ts' }, dts: false, clean: false }),
  ];
}

/**
 * Bundles private workspace packages (code and types) into a published package's `dist`, so
 * that its published manifest names nothing private (list them in its `devDependencies`).
 *
 * @example
 * export default libraryBuild({ entry: ['src/index.ts'], ...bundlingPrivate(['@dcg/coded-error']) });
 */
export function bundlingPrivate(packages: string[]): Options {
  return { noExternal: packages, dts: { resolve: packages } };
}
