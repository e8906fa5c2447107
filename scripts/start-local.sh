#!/usr/bin/env bash
# npm start: installs and builds what is missing, applies migrations, starts vcsim (standing in for
# vCenter) and the four apps, and waits. Ctrl-C (or SIGTERM) stops every process it started.
#
# Variables: DATABASE_URL, NATS_URL, NATS_NAMESPACE, GATEWAY_HOST, GATEWAY_PORT (see README.md);
# VCSIM_LISTEN (default 127.0.0.1:8989), START_VCSIM=0 to run without vcsim.
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
  if [ ${#pids[@]} -gt 0 ]; then
    say "stopping ${#pids[@]} processes"
    stop_group "${pids[@]}"
  fi
  # NATS last, so the apps can finish their work and close their connections cleanly.
  if [ -n "$nats_pid" ]; then stop_group "$nats_pid"; fi
  say "stopped"
}
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap 'stop_all' EXIT

if [ ! -x "$NODE" ]; then
  say "installing dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi

stamp=dist/.build-stamp
if [ ! -f "$stamp" ] || [ -n "$(find apps libs -name '*.ts' -newer "$stamp" -print -quit)" ]; then
  say "building the apps"
  npm run -s build
  touch "$stamp"
fi

if [ "${START_VCSIM:-1}" != 0 ] && [ ! -x .cache/vcsim/bin/vcsim ]; then
  say "building vcsim from Debian's govmomi packages (once)"
  npm run -s vcsim:build
fi

"$NODE" scripts/ensure-database.js
say "applying migrations"
"$NODE" dist/apps/order-service/apps/order-service/src/migrate.js
"$NODE" dist/apps/vsphere-adapter/apps/vsphere-adapter/src/migrate.js
say "local demo: staff user 'admin'; its API token is the next line (send it as 'Authorization: Token <token>')"
"$NODE" dist/apps/order-service/apps/order-service/src/create-staff.js admin | tail -n 1

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

if [ "${START_VCSIM:-1}" != 0 ]; then
  bash scripts/vcsim/start.sh "${VCSIM_LISTEN:-127.0.0.1:8989}" &
  pids+=($!)
fi

for app in order-service vsphere-adapter sync-scheduler gateway; do
  # With our own NATS, each app gets its own seed and only its own.
  seed=()
  if [ -n "$nats_pid" ]; then seed=("NATS_NKEY_SEED_FILE=$NATS_DIR/keys/$app.nk"); fi
  env "${seed[@]}" "$NODE" "dist/apps/$app/apps/$app/src/main.js" &
  pids+=($!)
done

for _ in $(seq 1 100); do
  if "$NODE" -e "fetch('$GATEWAY_URL/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then
    say "up: gateway $GATEWAY_URL (health: $GATEWAY_URL/health); Ctrl-C stops everything"
    break
  fi
  sleep 0.3
done

# Any process that ends (NATS included) takes the whole system down with it, so a half-started
# system never lingers.
wait -n
say "a process exited; stopping the rest"
exit 1
