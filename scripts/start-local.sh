#!/usr/bin/env bash
# npm start: installs and builds what is missing, applies migrations, starts vcsim (standing in for
# vCenter) with the project's front before it and the four apps, registers the demo (a provider, a
# customer with a project, an active vSphere offering on vcsim), gives the demo staff user 'admin' a
# password for the portal (printed once, the first start on a database), and waits. Ctrl-C (or SIGTERM)
# stops every process it started.
#
# Variables: DATABASE_URL, NATS_URL, NATS_NAMESPACE, GATEWAY_HOST, GATEWAY_PORT (see README.md);
# START_VCSIM=0 to run without vcsim, its front and the demo; VCSIM_LISTEN (vcsim, default
# 127.0.0.1:8989) and VCSIM_FRONT_LISTEN (the front, vCenter 8 as the adapter sees it, default
# 127.0.0.1:8990), port 0 for any free one; VCSIM_USERNAME, VCSIM_PASSWORD (the user vcsim enforces,
# default user/pass as upstream vcsim); CREDENTIALS_KEYS (the adapter's key for vCenter passwords;
# unset: a throwaway key made once in .cache/credentials-keys, never printed);
# VCENTER_ALLOWED_NETWORKS (where the adapter may reach a vCenter besides Internet addresses; unset:
# loopback, where the demo's vcsim front listens, and nothing else internal).
#
# NATS: without NATS_URL, a nats-server of its own with the project's configuration (every app
# authenticates with an nkey of its own and may use only its subjects), listening on NATS_LISTEN
# (default 127.0.0.1:4223, so a NATS on 4222 is left alone), its keys and store in .cache/nats/<ns>.
# With NATS_URL, the apps use that server and whatever NATS_* credentials the environment holds.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
NODE=$ROOT/node_modules/.bin/node
GATEWAY_URL="http://${GATEWAY_HOST:-127.0.0.1}:${GATEWAY_PORT:-8080}"
say() { printf '[start] %s\n' "$*" >&2; }

pids=()
nats_pid=
# One-shot helpers (the vcsim build, the template publisher, the demo registration): stopped with the
# rest, but their end does not take the system down.
helper_pid=
RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/vmm-start.XXXXXX")
stop_group() {
  kill -TERM "$@" 2>/dev/null || true
  for _ in $(seq 1 50); do
    alive=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.2
  done
  kill -KILL "$@" 2>/dev/null || true
}
stop_all() {
  trap - INT TERM EXIT
  if [ -n "$helper_pid" ]; then stop_group "$helper_pid"; fi
  if [ ${#pids[@]} -gt 0 ]; then
    say "stopping ${#pids[@]} processes"
    stop_group "${pids[@]}"
  fi
  # NATS last, so the apps can finish their work and close their connections cleanly.
  if [ -n "$nats_pid" ]; then stop_group "$nats_pid"; fi
  rm -rf "$RUN_DIR"
  say "stopped"
}
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap 'stop_all' EXIT

# vcsim is built (once) while the dependencies install and the apps build: neither needs the other.
vcsim_build_pid=
if [ "${START_VCSIM:-1}" != 0 ] && [ ! -x .cache/vcsim/bin/vcsim ]; then
  say "building vcsim from Debian's govmomi packages (once, meanwhile)"
  bash scripts/vcsim/build.sh >"$RUN_DIR/vcsim-build.log" 2>&1 &
  vcsim_build_pid=$!
  helper_pid=$vcsim_build_pid
fi

if [ ! -x "$NODE" ]; then
  say "installing dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi

stamp=dist/.build-stamp
if [ ! -f "$stamp" ] || [ -n "$(find apps libs \( -name '*.ts' -o -name '*.tsx' -o -name '*.css' -o -name '*.html' \) -newer "$stamp" -print -quit)" ]; then
  say "building the apps"
  npm run -s build
  touch "$stamp"
fi

if [ -n "$vcsim_build_pid" ]; then
  wait "$vcsim_build_pid" || { tail -n 20 "$RUN_DIR/vcsim-build.log" >&2; say "building vcsim failed"; exit 1; }
  helper_pid=
  say "vcsim built"
fi

# vcsim (standing in for vCenter) and the project's front before it (vCenter 8's /api, which vcsim
# lacks; /sdk forwarded); the demo templates are published through the front while the apps start.
VCSIM=${START_VCSIM:-1}
TS=("$NODE" -r ./scripts/ts-register.js)
export VCSIM_USERNAME=${VCSIM_USERNAME:-user} VCSIM_PASSWORD=${VCSIM_PASSWORD:-pass}
export VCSIM_CA=$ROOT/.cache/vcsim/tls/ca.pem
vcsim_pid= front_pid= publish_pid=

# The first group of `pattern` in the first line of `file` that matches, waited for while `pid`
# lives (up to 30 s); fails with the file's tail.
await_line() {
  local file=$1 pid=$2 pattern=$3 what=$4 found
  for _ in $(seq 1 300); do
    found=$(sed -n "s#$pattern#\\1#p" "$file" 2>/dev/null | head -n 1)
    if [ -n "$found" ]; then printf '%s\n' "$found"; return 0; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  tail -n 5 "$file" >&2
  say "$what did not start"
  return 1
}

start_vcsim() {
  bash scripts/vcsim/start.sh "${VCSIM_LISTEN:-127.0.0.1:8989}" -- \
    -username "$VCSIM_USERNAME" -password "$VCSIM_PASSWORD" >"$RUN_DIR/vcsim.log" 2>&1 &
  vcsim_pid=$!
  pids+=("$vcsim_pid")
}

start_front() {
  VCSIM_URL=https://$(await_line "$RUN_DIR/vcsim.log" "$vcsim_pid" '.*GOVC_URL=https://[^@]*@\([^/]*\)/sdk.*' vcsim) || exit 1
  (
    export VCSIM_URL VCSIM_FRONT_LISTEN=${VCSIM_FRONT_LISTEN:-127.0.0.1:8990}
    exec "${TS[@]}" scripts/vcsim/front.ts >"$RUN_DIR/front.log"
  ) &
  front_pid=$!
  pids+=("$front_pid")
}

publish_templates() {
  VCSIM_FRONT_URL=$(await_line "$RUN_DIR/front.log" "$front_pid" '^VCSIM_FRONT_URL=\(.*\)$' "the vcsim front") || exit 1
  export VCSIM_FRONT_URL
  say "vcsim on $VCSIM_URL, its front (vCenter 8's /api and /sdk) on $VCSIM_FRONT_URL (CA ${VCSIM_CA#"$ROOT"/})"
  "${TS[@]}" scripts/vcsim/publish-templates.ts >"$RUN_DIR/templates.json" &
  publish_pid=$!
  helper_pid=$publish_pid
}

# Both start while the migrations run (the front's start-up, compiling from source, is the slow part).
if [ "$VCSIM" != 0 ]; then start_vcsim && start_front; fi

"$NODE" scripts/ensure-database.js
say "applying migrations"
"$NODE" dist/apps/order-service/apps/order-service/src/migrate.js
"$NODE" dist/apps/vsphere-adapter/apps/vsphere-adapter/src/migrate.js
# Each start replaces the demo token (the previous one is revoked), so starts never pile up live tokens.
say "local demo: staff user 'admin'; its API token is the next line (send it as 'Authorization: Token <token>');"
say "it replaces the one printed by the previous start and expires after ${TOKEN_LIFETIME_S:-3600} s unused"
token=$("$NODE" dist/apps/order-service/apps/order-service/src/create-staff.js admin | tail -n 1)
printf '%s\n' "$token"

# The adapter stores vCenter passwords encrypted with CREDENTIALS_KEYS; unless one is given, a
# throwaway key of this checkout, made once (a new key would make the stored passwords unreadable).
KEYS_FILE=$ROOT/.cache/credentials-keys
if [ -z "${CREDENTIALS_KEYS:-}" ] && [ ! -s "$KEYS_FILE" ]; then
  mkdir -p "$ROOT/.cache"
  (umask 077 && "$NODE" -e \
    "process.stdout.write('local:' + require('node:crypto').randomBytes(32).toString('base64') + '\\n')" \
    >"$KEYS_FILE.tmp" && mv "$KEYS_FILE.tmp" "$KEYS_FILE")
  say "made a throwaway key for the adapter's stored passwords (${KEYS_FILE#"$ROOT"/})"
fi

port_open() { (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; }

# Starts the project's own authenticated nats-server (see the header) and points NATS_URL at it.
start_nats() {
  local namespace=${NATS_NAMESPACE:-vmm} listen=${NATS_LISTEN:-127.0.0.1:4223} server
  server=${NATS_SERVER_BIN:-$(command -v nats-server || echo /usr/sbin/nats-server)}
  if [ ! -x "$server" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      say "installing nats-server (Debian package)"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null; }
      server=$(command -v nats-server || echo /usr/sbin/nats-server)
    else
      say "nats-server is not installed: install it (apt-get install nats-server), or set NATS_URL to a running NATS"
      exit 1
    fi
  fi
  if port_open "$listen"; then
    say "$listen is taken: set NATS_LISTEN to a free address, or NATS_URL to use that server"
    exit 1
  fi
  NATS_DIR=$ROOT/.cache/nats/$namespace
  mkdir -p "$NATS_DIR"
  "$NODE" scripts/nats-config.js --namespace "$namespace" --out "$NATS_DIR/authorization.conf"
  "$NODE" deploy/nats/nats-keys.js --namespace "$namespace" --authorization "$NATS_DIR/authorization.conf" \
    --out "$NATS_DIR/keys" >/dev/null
  {
    echo "listen: $listen"
    echo "jetstream { store_dir: \"$NATS_DIR/store\" }"
    cat "$NATS_DIR/keys/nkeys.env" "$NATS_DIR/authorization.conf"
  } >"$NATS_DIR/nats-server.conf"
  "$server" -c "$NATS_DIR/nats-server.conf" >"$NATS_DIR/nats-server.log" 2>&1 &
  nats_pid=$!
  for _ in $(seq 1 100); do
    port_open "$listen" && break
    kill -0 "$nats_pid" 2>/dev/null || { tail -n 5 "$NATS_DIR/nats-server.log" >&2; say "nats-server did not start"; exit 1; }
    sleep 0.1
  done
  port_open "$listen" || { say "nats-server did not listen on $listen within 10 s"; exit 1; }
  export NATS_URL="nats://$listen"
  say "NATS with authentication on $NATS_URL (keys in ${NATS_DIR#"$ROOT"/}/keys)"
}

if [ -z "${NATS_URL:-}" ]; then start_nats; fi

for app in order-service vsphere-adapter sync-scheduler gateway; do
  (
    # With our own NATS, each app gets its own seed and only its own; the key for stored
    # passwords goes to the adapter alone (through its environment, never its command line).
    if [ -n "$nats_pid" ]; then export NATS_NKEY_SEED_FILE=$NATS_DIR/keys/$app.nk; fi
    if [ "$app" = vsphere-adapter ] && [ -z "${CREDENTIALS_KEYS:-}" ]; then
      CREDENTIALS_KEYS=$(<"$KEYS_FILE")
      export CREDENTIALS_KEYS
    fi
    # The adapter refuses internal vCenter addresses unless listed; the demo's vcsim is on loopback.
    if [ "$app" = vsphere-adapter ]; then
      export VCENTER_ALLOWED_NETWORKS=${VCENTER_ALLOWED_NETWORKS-127.0.0.0/8,::1/128}
    fi
    exec "$NODE" "dist/apps/$app/apps/$app/src/main.js"
  ) &
  pids+=($!)
done
if [ "$VCSIM" != 0 ]; then publish_templates; fi

healthy=
for _ in $(seq 1 100); do
  if "$NODE" -e "fetch('$GATEWAY_URL/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then
    healthy=1
    say "up: gateway $GATEWAY_URL (web portal: $GATEWAY_URL/, health: $GATEWAY_URL/health); Ctrl-C stops everything"
    break
  fi
  sleep 0.3
done

# The demo: templates in vcsim, then the organisations and the offering through the public API.
# A failure leaves the system running without it.
register_demo() {
  if ! wait "$publish_pid"; then
    helper_pid=
    say "the demo templates were not published in vcsim (above): no demo offering"
    return
  fi
  DEMO_TEMPLATES=$(tail -n 1 "$RUN_DIR/templates.json") GATEWAY_URL=$GATEWAY_URL DEMO_API_TOKEN=$token \
    "${TS[@]}" scripts/demo/register-demo.ts &
  helper_pid=$!
  if wait "$helper_pid"; then
    say "demo: GET $GATEWAY_URL/api/marketplace-public-offerings/?type=VMware.VirtualMachine (README: \"The demo on npm start\")"
  else
    say "the demo was not registered (above); everything else runs"
  fi
  helper_pid=
}

if [ -n "$publish_pid" ]; then
  if [ -n "$healthy" ]; then
    register_demo
  else
    say "the gateway is not healthy: no demo registered"
  fi
fi

# A way into the portal for a person: the first start on a database gives 'admin' a password and
# prints it once (stdout); later starts say so. The marker (per database) never holds the password.
if [ -n "$healthy" ]; then
  db_key=$(printf '%s' "${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/vmmarket}" | sha256sum | cut -c1-16)
  GATEWAY_URL=$GATEWAY_URL DEMO_API_TOKEN=$token DEMO_USERNAME=admin \
    DEMO_PASSWORD_MARKER="$ROOT/.cache/demo-password/$db_key" \
    "${TS[@]}" scripts/demo/demo-sign-in.ts || say "no demo password set (above); the token still works"
fi

# Any process that ends (NATS included) takes the whole system down with it, so a half-started
# system never lingers.
wait -n
say "a process exited; stopping the rest"
exit 1
