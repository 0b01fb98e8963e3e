#!/usr/bin/env bash
# The README's start command: installs the workspace and starts the platform on its embedded
# defaults (data in .dcg-data/, demo data loaded, fixed ports printed at start-up).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
exec pnpm start
