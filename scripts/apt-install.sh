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
# Servers the tests start themselves (sshd, nginx) are not started as system services: a
# policy-rc.d that says no, for the length of the install, unless the machine has its own.
POLICY=/usr/sbin/policy-rc.d
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
  $SUDO chmod 755 "$POLICY"
  trap '$SUDO rm -f "$POLICY"' EXIT
fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
