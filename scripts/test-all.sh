#!/usr/bin/env bash
# The README's test command: installs everything the tests need, then builds the packages and
# runs every test (the root vitest run over all projects).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pnpm.sh
bash scripts/ensure-system.sh
pnpm install --frozen-lockfile
pnpm test
