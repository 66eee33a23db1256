#!/usr/bin/env bash
# Sets up (libgit2, build) and runs todosync on a copy of SampleRepo in a temporary folder:
# ids, a commit in words, an editor's edit, status, the log, a plain git edit adopted, item
# commands and a batch, undo and redo, and a sync between two clones through a bare remote,
# merging by item.
set -euo pipefail
cd "$(dirname "$0")/.."
TODOSYNC="$(scripts/build-release.sh | tail -n 1)/todosync"
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

step "Item commands: each one commit; a batch of them is one commit"
show "$TODOSYNC" add "Call Bob" --priority high --due 2026-12-01
show "$TODOSYNC" done "Call Bob"
printf 'add "Book the dentist"\nadd "Buy stamps" --priority low\n' > "$DEMO/plan.txt"
show "$TODOSYNC" batch "$DEMO/plan.txt"
show "$TODOSYNC" list --open --sort priority

step "Undo the batch and the check (new commits: history is never rewritten), then redo one"
show "$TODOSYNC" undo 2
show "$TODOSYNC" redo
show "$TODOSYNC" log -n 6
show git status --short

step "Share the lists: a bare remote, and a second clone (the ids live in the files)"
show git init -q --bare -b main "$DEMO/remote.git"
show git remote add origin "$DEMO/remote.git"
show git config branch.main.remote origin
show git config branch.main.merge refs/heads/main
show "$TODOSYNC" sync
show git clone -q "$DEMO/remote.git" "$DEMO/laptop"
show diff -q "$DEMO/lists/work.md" "$DEMO/laptop/work.md"

step "Both clones edit the same list at once: different items, and two fields of one item"
sed -i.bak -e 's/\[ \] Pick up dry cleaning/[x] Pick up dry cleaning/' TODO.md && rm TODO.md.bak
sed -i.bak -e 's/Water the plants 🔼/Water the plants ⏫/' TODO.md && rm TODO.md.bak
cd "$DEMO/laptop"
sed -i.bak -e 's/- \[ \] Water the plants/- [x] Water the plants/' TODO.md && rm TODO.md.bak
printf -- '- [ ] Renew the passport\n' >> TODO.md
show "$TODOSYNC" sync
cd "$DEMO/lists"
show "$TODOSYNC" sync
show git log --graph --format='%h %s' -n 5
show grep -E 'dry cleaning|Water|Renew' TODO.md

step "The laptop syncs again: both clones hold the same lists"
cd "$DEMO/laptop"
show "$TODOSYNC" sync
show diff -q "$DEMO/lists/TODO.md" "$DEMO/laptop/TODO.md"
show git fsck --strict --no-progress

printf '\nThe demo repositories are in %s\n' "$DEMO"
