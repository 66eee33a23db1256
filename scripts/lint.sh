#!/usr/bin/env bash
# The house style, checked by swift-format (it ships with the toolchain) against .swift-format:
#   scripts/lint.sh          lints; exit 0 when every file is as swift-format writes it
#   scripts/lint.sh --fix    rewrites the files in place
# Only the project's own sources: not the dependencies SwiftPM checks out under .build.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Benchmarks Tests/TestSupport Tests/TodoModelTests Tests/TodoSyncKitTests
  Tests/GitStoreTests Tests/GFMDifferentialTests Tests/Fuzz/Package.swift Tests/Fuzz/Sources)
if [ "${1:-}" = --fix ]; then
  exec swift format format --in-place --recursive "${paths[@]}"
fi
exec swift format lint --strict --recursive "${paths[@]}"
