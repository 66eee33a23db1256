#!/usr/bin/env bash
# Runs the tests under a sanitizer, in a build folder of its own (docs/RELIABILITY.md,
# "Sanitizers"): the end-to-end tests run the sanitized todosync too.
#   scripts/sanitize.sh address [FILTER]   AddressSanitizer
#   scripts/sanitize.sh thread [FILTER]    ThreadSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-}
case "$kind" in
  address|thread) shift ;;
  *) echo "usage: scripts/sanitize.sh address|thread [FILTER]" >&2; exit 64 ;;
esac
scripts/ensure-libgit2.sh
scripts/ensure-test-tools.sh
swift build --build-tests --sanitize="$kind" --scratch-path ".build-$kind"
# swift-argument-parser's manual tool: the install tests make the man page with it.
swift build --product generate-manual --scratch-path ".build-$kind"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}
skip=()
# Under ThreadSanitizer a program whose file write fails on a file-size limit (the full-disk
# test's RLIMIT_FSIZE) stops with SIGBUS inside the sanitizer's runtime (RELIABILITY.md).
if [ "$kind" = thread ]; then skip=(--skip aFullDiskStopsTheWriteWithNothingLost); fi
if [ $# -gt 0 ]; then
  swift test --skip-build --sanitize="$kind" --scratch-path ".build-$kind" "${skip[@]}" --filter "$1"
else
  swift test --skip-build --sanitize="$kind" --scratch-path ".build-$kind" "${skip[@]}"
fi
