#!/usr/bin/env bash
# Benchmarks todosync against the git CLI in the same run (release build).
#   scripts/bench.sh           full: 1k/10k/100k-item lists, a 1,000-commit repository, 11 runs
#   scripts/bench.sh --quick   fewer sizes and runs
#   scripts/bench.sh --smoke   seconds; CI uses it to keep the harness building (no thresholds)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-libgit2.sh

# Release builds link the Swift runtime statically: it starts 2-4 ms faster (docs/PERFORMANCE.md).
flags=(-c release --static-swift-stdlib)
if [ "${1:-}" = "--smoke" ]; then flags=(-c debug); fi
for product in todosync-core todosync todosync-bench; do
  if ! out=$(swift build "${flags[@]}" --product "$product" 2>&1); then echo "$out" >&2; exit 1; fi
done
"$(swift build "${flags[@]}" --show-bin-path)/todosync-bench" "$@"
