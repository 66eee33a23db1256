#!/usr/bin/env bash
# Installs libgit2's development files (Debian: libgit2-dev) and pkg-config where missing.
set -euo pipefail
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libgit2; then
  exit 0
fi
"$(dirname "$0")/apt-install.sh" libgit2-dev pkg-config
