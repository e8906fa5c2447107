#!/usr/bin/env bash
# npm test: every test, from a fresh clone. Installs what is missing (dependencies, vcsim), builds
# the apps (e2e tests run them as processes), runs unit and integration tests side by side, then
# the e2e suites one at a time, then the fault-injection suites (their own nats-server and Postgres,
# killed and restarted; about 5 minutes, mostly the two 60 s outages and the cluster suite's 500 VM
# orders on a three-node NATS cluster), and closes with one line
# counting all tiers.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
say() { printf '[test] %s\n' "$*" >&2; }

[ -x node_modules/.bin/node ] || { say "installing dependencies (npm ci)"; npm ci --no-audit --no-fund || exit 1; }
[ -x .cache/vcsim/bin/vcsim ] || { say "building vcsim (once)"; bash scripts/vcsim/build.sh >/dev/null || exit 1; }
say "building the apps"
npm run -s build || exit 1

export TEST_SUMMARY_FILE
TEST_SUMMARY_FILE=$(mktemp)
JEST=(node_modules/.bin/node --experimental-vm-modules node_modules/jest/bin/jest.js)
started=$SECONDS
"${JEST[@]}" --selectProjects unit integration "$@"
first=$?
say "unit and integration took $((SECONDS - started)) s"
started=$SECONDS
"${JEST[@]}" --selectProjects e2e --runInBand "$@"
second=$?
say "e2e took $((SECONDS - started)) s"
started=$SECONDS
"${JEST[@]}" --selectProjects faults --runInBand --passWithNoTests "$@"
third=$?
say "faults took $((SECONDS - started)) s"

node_modules/.bin/node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").filter(Boolean);
  const total = { passed: 0, failed: 0, skipped: 0 };
  const tiers = [];
  for (const line of lines) for (const [tier, c] of Object.entries(JSON.parse(line))) {
    tiers.push(`${tier} ${c.passed}/${c.passed + c.failed}`);
    for (const k of Object.keys(total)) total[k] += c[k];
  }
  console.log(`per tier (passed/run): ${tiers.join(", ")}`);
  console.log(`tests: ${total.passed} passed, ${total.failed} failed` + (total.skipped ? `, ${total.skipped} skipped` : ""));
' "$TEST_SUMMARY_FILE"
rm -f "$TEST_SUMMARY_FILE"
[ $first = 0 ] && [ $second = 0 ] && [ $third = 0 ]
