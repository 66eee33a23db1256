#!/usr/bin/env bash
# Sets up (libgit2, build) and runs todosync on a copy of SampleRepo in a temporary folder:
# ids, a commit in words, an editor's edit, status, the log, a plain git edit adopted, a clone.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-libgit2.sh
swift build -c release --static-swift-stdlib --product todosync 2>&1 | tail -n 1
TODOSYNC="$PWD/.build/release/todosync"
DEMO=$(mktemp -d "${TMPDIR:-/tmp}/todosync-demo-XXXXXX")
export GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-Demo User}" GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-demo@example.com}"
export GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-$GIT_AUTHOR_NAME}" GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-$GIT_AUTHOR_EMAIL}"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

cp -R SampleRepo "$DEMO/lists"
cd "$DEMO/lists"

step "Adopt the sample lists: every item gets an id, one commit"
show "$TODOSYNC" init .
show head -n 8 TODO.md

step "Edit TODO.md as an editor would: check one item, add one, rename one"
sed -i.bak -e 's/- \[ \] Buy milk/- [x] Buy milk/' -e 's/Return library books/Return the library books/' TODO.md && rm TODO.md.bak
printf -- '- [ ] Water the plants 🔼\n' >> TODO.md
show "$TODOSYNC" status

step "Commit the session: one commit that says what changed"
show "$TODOSYNC"
show git log --format='%h %s' -n 3
show git show --stat --format='%B' HEAD

step "Nothing changed: no commit"
show "$TODOSYNC"
show git status --short

step "A plain git user adds an item without an id; todosync adopts it"
printf -- '- [ ] Added with plain git\n' >> work.md
show git commit -qam "Add an item with plain git"
show "$TODOSYNC"
show tail -n 1 work.md
show git fsck --strict --no-progress

step "A second clone carries the same ids: they live in the files"
show git clone -q "$DEMO/lists" "$DEMO/clone"
cd "$DEMO/clone"
show "$TODOSYNC" status
show diff -q "$DEMO/lists/work.md" "$DEMO/clone/work.md"

printf '\nThe demo repositories are in %s\n' "$DEMO"
echo "Undo/redo and sync between clones are not built yet (see the open issues)."
