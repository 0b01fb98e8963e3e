#!/usr/bin/env bash
# Installs and starts what the tests need outside npm: Debian's chromium (browser tests),
# virtuoso-opensource (a real upstream SPARQL server), prometheus (for its promtool: the alert
# rules and /metrics checks of tests/ops-monitoring.test.ts) and a running PostgreSQL.
# Safe to run again: it only acts on what is missing.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v virtuoso-t >/dev/null 2>&1 || missing+=(virtuoso-opensource)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)

if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-system: installing ${missing[*]} from Debian's packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "ensure-system: ${missing[*]} missing and cannot apt-get install here: the tests that need them will skip" >&2
  fi
fi

# PostgreSQL: start the local cluster if it is installed but down.
if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [[ -d /etc/postgresql ]]; then
    echo "ensure-system: starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
fi
if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "ensure-system: PostgreSQL is up at 127.0.0.1:5432"
else
  echo "ensure-system: no PostgreSQL at 127.0.0.1:5432: the PostgreSQL tests will skip" >&2
fi
