#!/bin/bash
# start.sh — run the project's vcsim for local use (npm start, manual testing), in the foreground.
#
# Usage: scripts/vcsim/start.sh [LISTEN [CERT KEY]] [-- extra vcsim flags]
#   LISTEN  host:port to listen on (default 127.0.0.1:8989; port 0 picks a free one)
#   CERT    PEM server certificate; KEY its key. When both are omitted, a throwaway CA and a
#           certificate for 127.0.0.1/localhost are made once under .cache/vcsim/tls, so that
#           clients keep TLS verification on with ca=.cache/vcsim/tls/ca.pem.
#   Everything after `--` (or from the first argument that starts with `-`) goes to vcsim as
#   flags, e.g. `start.sh 127.0.0.1:0 -- -cluster 2 -vm 3`.
# Prints VCSIM_URL (unless the port is 0) and VCSIM_CA first, then vcsim's own "export GOVC_URL=..." line.
# Stop it with SIGTERM (Ctrl-C): vcsim then removes its /tmp/govcsim-* datastore folders.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$ROOT/.cache/vcsim/bin/vcsim
# Up to three positional arguments, ended by `--`, by a flag, or by the third one: `--` is never
# taken for a certificate path.
POSITIONAL=()
while [ $# -gt 0 ] && [ ${#POSITIONAL[@]} -lt 3 ]; do
  case "$1" in
    --) break ;;
    -*) break ;;
    *) POSITIONAL+=("$1"); shift ;;
  esac
done
[ "${1:-}" = "--" ] && shift
LISTEN=${POSITIONAL[0]:-127.0.0.1:8989}
CERT=${POSITIONAL[1]:-}
KEY=${POSITIONAL[2]:-}

if [ ! -x "$BIN" ]; then
  echo "vcsim is not built ($BIN missing): run \`npm run vcsim:build\` first" >&2
  exit 1
fi

CA=""
if [ -z "$CERT" ] && [ -z "$KEY" ]; then
  TLS=$ROOT/.cache/vcsim/tls
  CERT=$TLS/server.pem KEY=$TLS/server.key CA=$TLS/ca.pem
  if [ ! -s "$CERT" ] || [ ! -s "$KEY" ] || [ ! -s "$CA" ]; then
    mkdir -p "$TLS"
    EC=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
    openssl req -x509 "${EC[@]}" -keyout "$TLS/ca.key" -out "$CA" -days 365 -subj "/CN=vcsim local CA" 2>/dev/null
    openssl req "${EC[@]}" -keyout "$KEY" -out "$TLS/server.csr" -subj /CN=localhost 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' >"$TLS/server.ext"
    openssl x509 -req -in "$TLS/server.csr" -CA "$CA" -CAkey "$TLS/ca.key" -CAcreateserial \
      -out "$CERT" -days 365 -extfile "$TLS/server.ext" 2>/dev/null
  fi
elif [ -z "$CERT" ] || [ -z "$KEY" ]; then
  echo "give both CERT and KEY, or neither" >&2
  exit 2
fi

case "$LISTEN" in
  *:0) echo "VCSIM_URL: port chosen by vcsim, see GOVC_URL below" ;;
  *) echo "VCSIM_URL=https://$LISTEN" ;;
esac
[ -n "$CA" ] && echo "VCSIM_CA=$CA"
exec "$BIN" -l "$LISTEN" -tlscert "$CERT" -tlskey "$KEY" "$@"
