#!/usr/bin/env bash
# Packs every package, installs the tarballs into an empty scratch project outside the workspace, and runs
# a small adapter on SQLite and the `nimbus` CLI from there. Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d /tmp/nimbus-packaging.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tarballs" "$work/app"

for dir in packages/*/; do
  [ -f "$dir/package.json" ] || continue
  npm pack --silent --pack-destination "$work/tarballs" "./$dir" >/dev/null
done
echo "packed: $(ls "$work/tarballs" | tr '\n' ' ')"

cd "$work/app"
printf '{ "name": "scratch-app", "private": true, "type": "module" }\n' >package.json
# The app chooses its SQL driver (optional peer dependencies of the NimBus SQL packages) and its schema library.
npm install --no-audit --no-fund --loglevel=error "$work"/tarballs/*.tgz better-sqlite3@13.2.0 zod@^4.1.0
cp "$root/scripts/packaging/adapter.mjs" .
node adapter.mjs

npx --no-install nimbus --help >"$work/help.txt"
grep -q "dev" "$work/help.txt" || { echo "nimbus --help does not list the dev command"; exit 1; }
npx --no-install nimbus store verify --store sqlite --data-dir "$work/data" >/dev/null 2>&1 && {
  echo "nimbus store verify passed on an empty data dir (it must report missing migrations)"; exit 1; }
npx --no-install nimbus store migrate --store sqlite --data-dir "$work/data"
npx --no-install nimbus store verify --store sqlite --data-dir "$work/data"
test -f node_modules/@nimbus/webapp/ui/dist/index.html || { echo "the @nimbus/webapp tarball lacks ui/dist"; exit 1; }
echo "packaging test passed: tarballs install outside the workspace, the adapter and the nimbus CLI run"
