#!/usr/bin/env bash
# A many-clone soak through a real https server (docs/RELIABILITY.md, "Soak").
#   scripts/soak.sh [--clones N] [--minutes M] [--seed S] [--keep]
# N clones (default 6), each running `todosync watch --sync-every 3s` beside a simulated
# person, and a plain git user, for M minutes (default 10); then every clone syncs until
# nothing more comes in and scripts/soak.py judges (its rules are at its top). The last line
# says `soak: converged, ...` (exit 0) or `soak: FAILED: ...` (exit 1, the scratch folder kept).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
if [ ! -x /usr/sbin/nginx ]; then missing+=(nginx); fi
if [ ! -x /usr/sbin/fcgiwrap ]; then missing+=(fcgiwrap); fi
if ! command -v openssl >/dev/null 2>&1; then missing+=(openssl); fi
if [ ! -x /usr/bin/python3 ]; then missing+=(python3); fi
if [ ${#missing[@]} -gt 0 ]; then scripts/apt-install.sh "${missing[@]}"; fi
scripts/ensure-libgit2.sh
swift build --product todosync >/dev/null
exec /usr/bin/python3 scripts/soak.py --todosync "$PWD/.build/debug/todosync" "$@"
