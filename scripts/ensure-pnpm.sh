#!/usr/bin/env bash
# pnpm 10 from the npm registry (corepack is not used: it fails on registry signatures here).
set -euo pipefail
if ! command -v pnpm >/dev/null 2>&1 || [[ $(pnpm -v | cut -d. -f1) != 10 ]]; then
  npm install -g pnpm@10 >/dev/null
fi
