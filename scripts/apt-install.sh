#!/usr/bin/env bash
# Installs Debian packages (once, with sudo unless root): apt-install.sh PACKAGE...
set -euo pipefail
if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing: $* (install with your package manager; macOS: brew install libgit2 pkg-config cmark-gfm)" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "Installing $* (once) ..." >&2
# A fresh machine's package lists are empty: update first.
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
