#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (docs/RELIABILITY.md, "Fuzzing").
#   scripts/fuzz.sh                   lists the targets
#   scripts/fuzz.sh TARGET SECONDS    runs one for SECONDS; exits 0 when it found nothing
#   scripts/fuzz.sh all SECONDS       runs each in turn (CI: a few seconds each)
# The targets (Tests/Fuzz) are built with AddressSanitizer and libFuzzer's coverage; each run
# starts from the committed seeds (Tests/Fuzz/Corpus/TARGET) and the inputs earlier runs kept
# (.build/fuzz/corpus/TARGET). A finding is left in .build/fuzz/findings/TARGET/ with the
# command that runs it again.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(parse-render id-assignment merge merge-file dates reflog trailers)
describe() {
  case "$1" in
    parse-render) echo "any bytes: parse then render gives them back" ;;
    id-assignment) echo "a list edited since a commit: ids only added, never twice" ;;
    merge) echo "three lists: merge(b, x, x) = x, merge(b, b, x) = x, a merge reads back" ;;
    merge-file) echo "the merge driver's list merge on any three files (markers, binary): laws hold" ;;
    dates) echo "recurrence rules and date expressions: no crash, next dates move on" ;;
    reflog) echo "any bytes as a reflog: the reader finds what a line-by-line reading finds" ;;
    trailers) echo "any words before todosync's trailers: the trailers read back as written" ;;
  esac
}
if [ $# -eq 0 ]; then
  echo "targets (scripts/fuzz.sh TARGET SECONDS):"
  for target in "${targets[@]}"; do printf '  %-14s %s\n' "$target" "$(describe "$target")"; done
  exit 0
fi
if [ $# -ne 2 ] || ! [[ "$2" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh [TARGET|all SECONDS]" >&2
  exit 64
fi
if [ "$1" = all ]; then
  for target in "${targets[@]}"; do "$0" "$target" "$2"; done
  exit 0
fi
target=$1 seconds=$2
if ! printf '%s\n' "${targets[@]}" | grep -qx "$target"; then
  echo "scripts/fuzz.sh: no target '$target'; scripts/fuzz.sh lists them" >&2
  exit 64
fi
scripts/ensure-libgit2.sh
runtime=$(ls /opt/swift/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1)
if [ -z "$runtime" ]; then
  runtime=$(dirname "$(command -v swiftc)")/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a
fi
# libFuzzer's driver without its main (SwiftPM gives each executable a main of its own).
if ! out=$(swift build --package-path Tests/Fuzz -c release --product "fuzz-$target" \
    -Xswiftc -enable-testing -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
    -Xlinker $runtime -Xlinker -lstdc++ 2>&1); then
  echo "$out" >&2
  exit 1
fi
binary=Tests/Fuzz/.build/release/fuzz-$target
work=.build/fuzz
corpus=$work/corpus/$target findings=$work/findings/$target
mkdir -p "$corpus" "$findings"
log=$work/$target.log
set +e
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$findings/" "$corpus" "Tests/Fuzz/Corpus/$target" >"$log" 2>&1
status=$?
set -e
# NB: a finding while the seeds are read leaves no coverage line; grep's status must not end the script.
summary=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW)' "$log" | tail -n 1 || true)
runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
echo "fuzz $target: ${runs:-0} runs in ${seconds}s; ${summary:-no coverage line}"
if [ $status -ne 0 ]; then
  echo "fuzz $target FOUND something (exit $status): see $log" >&2
  grep -E 'ERROR|Fatal error|Precondition|precondition|SUMMARY|artifact|crashed' "$log" | head -n 8 >&2 || true
  for finding in "$findings"/*; do
    [ -f "$finding" ] && echo "run it again: $binary $finding" >&2
  done
  exit 1
fi
