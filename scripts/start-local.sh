#!/usr/bin/env bash
# npm start: installs and builds what is missing, applies migrations, starts vcsim (standing in for
# vCenter) and the four apps, and waits. Ctrl-C (or SIGTERM) stops every process it started.
#
# Variables: DATABASE_URL, NATS_URL, NATS_NAMESPACE, GATEWAY_HOST, GATEWAY_PORT (see README.md);
# VCSIM_LISTEN (default 127.0.0.1:8989), START_VCSIM=0 to run without vcsim.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
NODE=$ROOT/node_modules/.bin/node
GATEWAY_URL="http://${GATEWAY_HOST:-127.0.0.1}:${GATEWAY_PORT:-8080}"
say() { printf '[start] %s\n' "$*" >&2; }

pids=()
stop_all() {
  trap - INT TERM EXIT
  if [ ${#pids[@]} -gt 0 ]; then
    say "stopping ${#pids[@]} processes"
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 1 50); do
      alive=0
      for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
      [ $alive = 0 ] && break
      sleep 0.2
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
  fi
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
# Each start replaces the demo token (the previous one is revoked), so starts never pile up live tokens.
say "local demo: staff user 'admin'; its API token is the next line (send it as 'Authorization: Token <token>');"
say "it replaces the one printed by the previous start and expires after ${TOKEN_LIFETIME_S:-3600} s unused"
"$NODE" dist/apps/order-service/apps/order-service/src/create-staff.js admin | tail -n 1

if [ "${START_VCSIM:-1}" != 0 ]; then
  bash scripts/vcsim/start.sh "${VCSIM_LISTEN:-127.0.0.1:8989}" &
  pids+=($!)
fi

for app in order-service vsphere-adapter sync-scheduler gateway; do
  "$NODE" "dist/apps/$app/apps/$app/src/main.js" &
  pids+=($!)
done

for _ in $(seq 1 100); do
  if "$NODE" -e "fetch('$GATEWAY_URL/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then
    say "up: gateway $GATEWAY_URL (health: $GATEWAY_URL/health); Ctrl-C stops everything"
    break
  fi
  sleep 0.3
done

# Any process that ends takes the whole system down with it, so a half-started system never lingers.
wait -n
say "a process exited; stopping the rest"
exit 1
