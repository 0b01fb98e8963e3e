// What `pnpm pack` and `pnpm publish` put in a published package.json (the files in the repository
// stay as they are): no `@dcg/source` export condition (it points at `src/`, which is not
// shipped), no devDependencies (they name private workspace packages and only serve this
// repository) and no scripts (they run tools of this repository).

/** Removes the `@dcg/source` condition from an `exports` map, at any depth. */
function withoutSourceCondition(exports) {
  if (exports === null || typeof exports !== 'object') return exports;
  if (Array.isArray(exports)) return exports.map(withoutSourceCondition);
  const result = {};
  for (const [key, value] of Object.entries(exports)) {
    if (key === '@dcg/source') continue;
    result[key] = withoutSourceCondition(value);
  }
  return result;
}

module.exports = {
  hooks: {
    beforePacking(pkg) {
      if (pkg.exports !== undefined) pkg.exports = withoutSourceCondition(pkg.exports);
      delete pkg.devDependencies;
      delete pkg.scripts;
      return pkg;
    },
  },
};
