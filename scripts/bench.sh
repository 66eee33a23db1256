#!/usr/bin/env bash
# Benchmarks todosync against the git CLI in the same run (release build).
#   scripts/bench.sh           full: 1k/10k/100k-item lists, a 1,000-commit repository, 11 runs
#   scripts/bench.sh --quick   fewer sizes and runs
#   scripts/bench.sh --smoke   seconds; CI uses it to keep the harness building (no thresholds)
#   scripts/bench.sh --vault-only [NOTES]   a generated vault (5,000 notes, or NOTES)
#   scripts/bench.sh --vault-init-only [NOTES]  the vault init row alone
#   scripts/bench.sh --million-only [ITEMS] one list of a million items (or ITEMS)
set -euo pipefail
cd "$(dirname "$0")/.."

# Measures the programs users run: the release build of scripts/build-release.sh (static Swift
# runtime and libgit2). The smoke run only checks that the harness builds and runs: debug.
if [ "${1:-}" = "--smoke" ]; then
  scripts/ensure-libgit2.sh
  for product in todosync todosync-bench; do
    if ! out=$(swift build -c debug --product "$product" 2>&1); then echo "$out" >&2; exit 1; fi
  done
  bin=$(swift build -c debug --show-bin-path)
else
  bin=$(scripts/build-release.sh todosync todosync-bench | tail -n 1)
fi
"$bin/todosync-bench" "$@"
