#!/usr/bin/env bash
# Installs what the tests use beside libgit2 where missing: cmark-gfm (Debian's, the engine
# behind GitHub's Markdown), the witness of which lines are task items.
set -euo pipefail
if command -v cmark-gfm >/dev/null 2>&1 && [ -f /usr/share/doc/cmark-gfm/spec.txt.gz ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "cmark-gfm is missing: install it with your package manager (its GFM spec is read from /usr/share/doc/cmark-gfm/spec.txt.gz)" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "Installing cmark-gfm (once) ..." >&2
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmark-gfm >/dev/null
