#!/bin/bash
# build.sh — build bench/govmomi-reader (the govmomi reference of `npm run bench -- vim25`) offline,
# in GOPATH mode from the Debian packages vcsim is built from (golang-go,
# golang-github-vmware-govmomi-dev: see scripts/vcsim/build.sh). No module proxy, no network.
# The binary goes to .cache/ (never committed); a rebuild is skipped while it is newer than main.go.
#
# Usage: bench/govmomi-reader/build.sh [OUTPUT_BINARY]   (default .cache/govmomi-reader/bin/govmomi-reader)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SRC=$ROOT/bench/govmomi-reader
OUT=${1:-$ROOT/.cache/govmomi-reader/bin/govmomi-reader}

if [ -x "$OUT" ] && [ "$OUT" -nt "$SRC/main.go" ]; then
  echo "$OUT is up to date"
  exit 0
fi
if [ "$(dpkg-query -W -f='${db:Status-Abbrev}\n' golang-go golang-github-vmware-govmomi-dev 2>/dev/null | grep -c '^ii')" != 2 ]; then
  echo "golang-go and golang-github-vmware-govmomi-dev are not installed: run \`npm run vcsim:build\` first (it installs them)" >&2
  exit 1
fi
# The same toolchain and flags as vcsim's build: share its build cache when there is one, so the
# standard library is not compiled a second time (~40 s on 2 cores).
CACHE=$ROOT/.cache/vcsim/gocache
[ -d "$CACHE" ] || CACHE=$ROOT/.cache/govmomi-reader/gocache
mkdir -p "$(dirname "$OUT")"
cd "$SRC"
GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOPROXY=off CGO_ENABLED=0 \
  GOCACHE="${GOCACHE:-$CACHE}" \
  go build -trimpath -o "$OUT" .
echo "built $OUT"
