#!/usr/bin/env bash
# Installs libgit2's development files (Debian: libgit2-dev) and pkg-config where missing.
set -euo pipefail
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libgit2; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "libgit2 is missing: install it with your package manager (macOS: brew install libgit2 pkg-config)" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "Installing libgit2-dev (once) ..." >&2
# A fresh machine's package lists are empty: update first.
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libgit2-dev pkg-config >/dev/null
