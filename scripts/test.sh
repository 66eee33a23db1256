#!/usr/bin/env bash
# Runs every test: the pure core, the git layer, and todosync end to end through real repositories.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-libgit2.sh
scripts/ensure-test-tools.sh
swift build --build-tests
swift test --skip-build "$@"
