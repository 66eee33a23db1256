#!/usr/bin/env bash
# Runs every test: the pure core, the git layer, and todosync end to end through real repositories.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-libgit2.sh
scripts/ensure-test-tools.sh
swift build --build-tests
# swift-argument-parser's manual tool: the install tests make the man page with it.
swift build --product generate-manual
swift test --skip-build "$@"
