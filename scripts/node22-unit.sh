#!/usr/bin/env bash
# The oldest Node.js the engines admit (22): installs, builds and runs the unit suites (no service, no
# browser) on it, in a copy of the committed tree, so that the native SQLite module is built for Node 22
# without touching the Node 24 install of the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
node22_bin=$(bash scripts/ensure-node.sh 22)
work=$(mktemp -d /tmp/nimbus-node22.XXXXXX)
trap 'rm -rf "$work"' EXIT
git archive --format=tar HEAD | tar -x -C "$work"
cd "$work"
export PATH="$node22_bin:$PATH" npm_config_nodedir="$(dirname "$node22_bin")"
echo "node $(node --version)"
npm ci --no-audit --no-fund --loglevel=error >"$work/ci.log" 2>&1 || { tail -40 "$work/ci.log"; exit 1; }
if grep -q EBADENGINE "$work/ci.log"; then grep EBADENGINE "$work/ci.log"; exit 1; fi
# Unit suites: the packages whose tests need no PostgreSQL, browser, emulator or child processes of the stack,
# plus the SQLite suites of the SQL packages (the native driver on Node 22).
# (vitest's filters match path substrings: the trailing slashes keep message-store-cosmos out.)
npx vitest run --reporter=dot \
  packages/core/ packages/sdk/ packages/message-store/ packages/transport-memory/ packages/testing/ \
  packages/http-auth/ packages/sql/ packages/message-store-sql/ packages/transport-sql/ \
  --exclude '**/*.integration.test.ts' --exclude '**/*postgres*'
