#!/usr/bin/env bash
# npm run bench:quick: every bench of bench/ in its quick mode (`--quick`: small sizes, a few
# seconds each), so that none rots unseen; `npm test` runs it after the fault suites. The apps run
# from dist/ (`npm run build` first). Prints each bench's last line (its figures) and fails when one
# fails.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
failed=()
for file in bench/*.bench.ts; do
  name=$(basename "$file" .bench.ts)
  started=$SECONDS
  if output=$(node_modules/.bin/node scripts/bench.js "$name" --quick 2>&1); then
    printf '[bench] %s (%s s): %s\n' "$name" $((SECONDS - started)) "$(printf '%s\n' "$output" | tail -n 1 | cut -c1-400)" >&2
  else
    printf '[bench] %s FAILED after %s s:\n%s\n' "$name" $((SECONDS - started)) "$(printf '%s\n' "$output" | tail -n 30)" >&2
    failed+=("$name")
  fi
done
[ ${#failed[@]} -eq 0 ] || { printf '[bench] failed: %s\n' "${failed[*]}" >&2; exit 1; }
