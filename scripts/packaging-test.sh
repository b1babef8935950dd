#!/usr/bin/env bash
# Packs every package and checks the tarballs (LICENSE, source maps that resolve), installs them into an empty
# scratch project outside the workspace (no EBADENGINE warning), counts what the CLI and a minimal adapter pull,
# checks the runtime tree for critical advisories, and runs a small adapter on SQLite and the `nimbus` CLI from
# there. Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d /tmp/nimbus-packaging.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tarballs" "$work/unpacked" "$work/app"
CLI_MAX=150
ADAPTER_MAX=50

node scripts/publishable-manifests.mjs --check
for dir in packages/*/; do
  [ -f "$dir/package.json" ] || continue
  npm pack --silent --pack-destination "$work/tarballs" "./$dir" >/dev/null
done
echo "packed: $(ls "$work/tarballs" | tr '\n' ' ')"
for tarball in "$work"/tarballs/*.tgz; do
  into="$work/unpacked/$(basename "$tarball" .tgz)"
  mkdir -p "$into" && tar -xzf "$tarball" -C "$into"
done
node scripts/packaging/check-tarballs.mjs "$root/LICENSE" "$work"/unpacked/*

cd "$work/app"
printf '{ "name": "scratch-app", "private": true, "type": "module" }\n' >package.json
# The app chooses its SQL driver (optional peer dependencies of the NimBus SQL packages) and its schema library.
# Every tarball but the Service Bus emulator (a dev tool: below, `nimbus dev` must name it when it is missing).
tarballs=$(ls "$work"/tarballs/*.tgz | grep -v nimbus-servicebus-emulator-)
# shellcheck disable=SC2086
npm install --no-audit --no-fund --loglevel=warn $tarballs better-sqlite3@13.2.0 zod@^4.1.0 \
  >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
cat "$work/install.log"
if grep -q EBADENGINE "$work/install.log"; then
  echo "the install printed EBADENGINE (an engines range that does not hold on $(node --version)):"
  grep EBADENGINE "$work/install.log"
  exit 1
fi
node "$root/scripts/packaging/count-tree.mjs" . "$CLI_MAX" @nimbus/cli
node "$root/scripts/packaging/count-tree.mjs" . "$ADAPTER_MAX" @nimbus/sdk @nimbus/transport-sql better-sqlite3
node "$root/scripts/packaging/critical-advisories.mjs" .

cp "$root/scripts/packaging/adapter.mjs" .
node adapter.mjs

npx --no-install nimbus --help >"$work/help.txt"
grep -q "dev" "$work/help.txt" || { echo "nimbus --help does not list the dev command"; exit 1; }
npx --no-install nimbus store verify --store sqlite --data-dir "$work/data" >/dev/null 2>&1 && {
  echo "nimbus store verify passed on an empty data dir (it must report missing migrations)"; exit 1; }
npx --no-install nimbus store migrate --store sqlite --data-dir "$work/data"
npx --no-install nimbus store verify --store sqlite --data-dir "$work/data"
test -f node_modules/@nimbus/webapp/ui/dist/index.html || { echo "the @nimbus/webapp tarball lacks ui/dist"; exit 1; }
# The local Cosmos server and the Service Bus emulator are optional dev tools: without them `nimbus dev` names them.
cp "$root/deploy/platform/platform.mjs" ./platform.mjs
for backend in "--store cosmos" "--transport servicebus"; do
  # shellcheck disable=SC2086
  if timeout 60 npx --no-install nimbus dev --platform ./platform.mjs --no-sample $backend --port 0 \
    --data-dir "$work/dev" >"$work/dev.txt" 2>&1; then
    echo "nimbus dev $backend started without its dev tool installed"; exit 1
  fi
  grep -Eq "npm install --save-dev (@vercel/cosmosdb-server|@nimbus/servicebus-emulator)" "$work/dev.txt" || {
    echo "nimbus dev $backend did not name the package to install:"; cat "$work/dev.txt"; exit 1; }
  echo "nimbus dev $backend without its dev tool: $(grep -Eo 'needs [^,]+' "$work/dev.txt" | head -1)"
done
echo "packaging test passed: tarballs install outside the workspace, the adapter and the nimbus CLI run"
