#!/usr/bin/env bash
# Proves the README's main-job command on a fresh clone: `npm ci && npm start` must serve the UI
# within 60 seconds of `npm start` (npm ci's own time is printed, not budgeted).
set -euo pipefail
source_repo=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
log="$work/start.log"
cleanup() {
  if [ -n "${pid:-}" ]; then kill -TERM -- "-$pid" 2>/dev/null || true; sleep 1; kill -KILL -- "-$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

git clone -q "$source_repo" "$work/clone"
cd "$work/clone"
t0=$(date +%s)
npm ci --no-audit --no-fund >"$work/ci.log" 2>&1 || { tail -50 "$work/ci.log"; exit 1; }
echo "main job: npm ci took $(( $(date +%s) - t0 )) s"

t1=$(date +%s)
export NIMBUS_PORT=0
setsid npm start >"$log" 2>&1 &
pid=$!
url=""
while [ $(( $(date +%s) - t1 )) -lt 60 ]; do
  url=$(grep -o 'NimBus dev ready at http://[^ ]*' "$log" 2>/dev/null | head -n 1 | sed 's/NimBus dev ready at //') || true
  if [ -n "$url" ] && curl -fsS "$url/" -o "$work/index.html" 2>/dev/null && grep -qi '<div id="root"' "$work/index.html"; then
    break
  fi
  url=""
  if ! kill -0 "$pid" 2>/dev/null; then echo "npm start exited early:"; tail -50 "$log"; exit 1; fi
  sleep 1
done
elapsed=$(( $(date +%s) - t1 ))
if [ -z "$url" ]; then
  echo "main job: the UI was not served within 60 s of npm start"; tail -50 "$log"; exit 1
fi
echo "main job: npm start served the UI at $url after ${elapsed} s"
