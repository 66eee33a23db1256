#!/usr/bin/env bash
# Installs what the tests use beside libgit2 where missing: cmark-gfm (Debian's, the engine
# behind GitHub's Markdown, with its GFM spec), the witness of which lines are task items.
set -euo pipefail
if command -v cmark-gfm >/dev/null 2>&1 && [ -f /usr/share/doc/cmark-gfm/spec.txt.gz ]; then
  exit 0
fi
"$(dirname "$0")/apt-install.sh" cmark-gfm
