#!/usr/bin/env bash
# Makes sure what the test suite needs is on the machine: Debian's Chromium for
# Playwright (never a downloaded browser) and a running PostgreSQL server.
set -euo pipefail

if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium for the end-to-end tests"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null
  fi
fi

pg_ready() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
if [ -z "${TEST_PG_URL:-}" ] && ! pg_ready; then
  echo "starting the local PostgreSQL server"
  if command -v pg_ctlcluster >/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
  for _ in $(seq 1 30); do pg_ready && break; sleep 1; done
  pg_ready || { echo "PostgreSQL is not reachable on 127.0.0.1:5432 (set TEST_PG_URL)"; exit 1; }
fi
