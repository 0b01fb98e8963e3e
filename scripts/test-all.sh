#!/usr/bin/env bash
# The README's test command: installs everything the tests need, then builds the packages and
# runs every test (the root vitest run over all projects), ending with one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pnpm.sh
bash scripts/ensure-system.sh
bash scripts/ensure-node-lines.sh
pnpm install --frozen-lockfile
mkdir -p .test-results
status=0
pnpm test --reporter=default --reporter=json --outputFile.json=.test-results/vitest.json || status=$?
node scripts/test-summary.mjs .test-results/vitest.json || status=1
exit "$status"
