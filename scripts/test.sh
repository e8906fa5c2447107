#!/usr/bin/env bash
# npm test: every test, from a fresh clone. Installs what is missing (dependencies, vcsim), builds
# the apps (e2e tests run them as processes), runs unit and integration tests side by side, then
# the e2e suites two at a time (each on a database and NATS namespace of its own), then the
# fault-injection suites (their own nats-server and Postgres, killed and restarted): the two 60 s
# outages side by side, then the others one at a time (mostly the cluster suite's VM orders on a
# three-node NATS cluster), then
# every bench in its quick mode, and closes with one line counting all tiers and naming the slowest
# files.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
say() { printf '[test] %s\n' "$*" >&2; }

[ -x node_modules/.bin/node ] || { say "installing dependencies (npm ci)"; npm ci --no-audit --no-fund || exit 1; }
[ -x .cache/vcsim/bin/vcsim ] || { say "building vcsim (once)"; bash scripts/vcsim/build.sh >/dev/null || exit 1; }
say "building the apps"
npm run -s build || exit 1

export TEST_SUMMARY_FILE TEST_TIMINGS_FILE
TEST_SUMMARY_FILE=$(mktemp)
TEST_TIMINGS_FILE=$(mktemp)
JEST=(node_modules/.bin/node --experimental-vm-modules node_modules/jest/bin/jest.js)
# Jest's default is one worker per core less one: a single worker on a 2-core machine, which leaves a
# core idle while integration suites wait on vcsim, Postgres and NATS. At least two.
cores=$(nproc 2>/dev/null || echo 2)
WORKERS=$(( cores - 1 > 2 ? cores - 1 : 2 ))
started=$SECONDS
"${JEST[@]}" --selectProjects unit integration --maxWorkers="$WORKERS" "$@"
first=$?
say "unit and integration took $((SECONDS - started)) s"
started=$SECONDS
# Two at a time whatever the machine: each suite starts its apps, vcsim and sometimes Chromium.
"${JEST[@]}" --selectProjects e2e --maxWorkers=2 "$@"
second=$?
say "e2e took $((SECONDS - started)) s"
started=$SECONDS
# The two outage suites side by side (each its own system, mostly a minute of waiting), then the
# others one at a time.
OUTAGES='/outage-[a-z]+\.fault-spec\.ts$'
"${JEST[@]}" --selectProjects faults --maxWorkers=2 --passWithNoTests --testPathPatterns "$OUTAGES" "$@"
outages=$?
"${JEST[@]}" --selectProjects faults --runInBand --passWithNoTests --testPathIgnorePatterns "$OUTAGES" "$@"
others=$?
third=$(( outages || others ))
say "faults took $((SECONDS - started)) s"
# Every bench at small sizes, so none rots unseen (their figures are not the benches' figures). Not
# beside the fault suites: the cluster suite's 500 VM orders need the machine's CPU.
started=$SECONDS
bash scripts/bench-quick.sh
benches=$?
say "benches (quick) took $((SECONDS - started)) s"

node_modules/.bin/node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").filter(Boolean);
  const total = { passed: 0, failed: 0, skipped: 0 };
  const tiers = [];
  for (const line of lines) for (const [tier, c] of Object.entries(JSON.parse(line))) {
    tiers.push(`${tier} ${c.passed}/${c.passed + c.failed}`);
    for (const k of Object.keys(total)) total[k] += c[k];
  }
  console.log(`per tier (passed/run): ${tiers.join(", ")}`);
  const timings = require("fs").readFileSync(process.argv[2], "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const slowest = timings.sort((a, b) => b.s - a.s).slice(0, 12);
  console.log(`slowest files: ${slowest.map((t) => `${t.file} ${t.s.toFixed(0)} s`).join(", ")}`);
  console.log(`tests: ${total.passed} passed, ${total.failed} failed` + (total.skipped ? `, ${total.skipped} skipped` : ""));
' "$TEST_SUMMARY_FILE" "$TEST_TIMINGS_FILE"
mkdir -p .cache && cp "$TEST_TIMINGS_FILE" .cache/test-timings.jsonl
rm -f "$TEST_SUMMARY_FILE" "$TEST_TIMINGS_FILE"
[ $first = 0 ] && [ $second = 0 ] && [ $third = 0 ] && [ $benches = 0 ]
