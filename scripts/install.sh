#!/usr/bin/env bash
# Installs todosync: the release program, its man page and bash/zsh/fish completions.
#   make install [PREFIX=~/.local]        or: scripts/install.sh [PREFIX]
#   make uninstall [PREFIX=~/.local]      or: scripts/install.sh --uninstall [PREFIX]
# The man page comes from the argument parser's own description of the commands
# (swift-argument-parser's generate-manual, the tool behind its manual plugin, run on the
# built program); the completion scripts from the program itself.
# TODOSYNC_BIN=DIR installs the todosync already built in DIR instead of building it (the
# tests use their debug build); GENERATE_MANUAL=PATH names a built generate-manual.
set -euo pipefail
cd "$(dirname "$0")/.."

uninstall=""
if [ "${1:-}" = "--uninstall" ]; then uninstall=1; shift; fi
prefix=${1:-$HOME/.local}
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
files=(
  "bin/todosync"
  "share/man/man1/todosync.1"
  "share/bash-completion/completions/todosync"
  "share/zsh/site-functions/_todosync"
  "share/fish/vendor_completions.d/todosync.fish"
)
if [ -n "$uninstall" ]; then
  for file in "${files[@]}"; do rm -f "$prefix/$file"; done
  echo "Removed todosync from $prefix."
  exit 0
fi

if [ -n "${TODOSYNC_BIN:-}" ]; then bin=$TODOSYNC_BIN; else bin=$(scripts/build-release.sh todosync | tail -n 1); fi
program="$bin/todosync"
[ -x "$program" ] || { echo "install: $program was not built" >&2; exit 1; }

manual=${GENERATE_MANUAL:-}
if [ -z "$manual" ]; then
  echo "building generate-manual (swift-argument-parser's manual tool)" >&2
  if ! out=$(swift build -c debug --product generate-manual 2>&1); then echo "$out" >&2; exit 1; fi
  manual="$(swift build -c debug --show-bin-path)/generate-manual"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The page's date: the commit it was built from (the same page for the same sources).
date=$(git log -1 --format=%cs 2>/dev/null || date +%Y-%m-%d)
"$manual" "$program" --date "$date" --output-directory "$work" >/dev/null
# Blank lines in the command descriptions become paragraph breaks (mdoc warns about them).
sed 's/^$/.Pp/' "$work/todosync.1" > "$work/todosync.1.page"

mkdir -p "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
# Copied under a temporary name and renamed: a watch running the old program keeps running.
install -m 755 "$program" "$prefix/bin/.todosync.new"
mv -f "$prefix/bin/.todosync.new" "$prefix/bin/todosync"
install -m 644 "$work/todosync.1.page" "$prefix/share/man/man1/todosync.1"
for shell in bash zsh fish; do
  "$prefix/bin/todosync" --generate-completion-script "$shell" > "$work/completion.$shell"
done
install -m 644 "$work/completion.bash" "$prefix/share/bash-completion/completions/todosync"
install -m 644 "$work/completion.zsh" "$prefix/share/zsh/site-functions/_todosync"
install -m 644 "$work/completion.fish" "$prefix/share/fish/vendor_completions.d/todosync.fish"

echo "Installed todosync $("$prefix/bin/todosync" --version) in $prefix:"
for file in "${files[@]}"; do echo "  $prefix/$file"; done
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "Add $prefix/bin to your PATH (then man todosync finds the page too): export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
echo "Completions: bash loads them by itself (bash-completion, PREFIX ~/.local or /usr/local);"
echo "  zsh: fpath=($prefix/share/zsh/site-functions \$fpath) before compinit in ~/.zshrc;"
echo "  fish: loads them when $prefix/share is in XDG_DATA_DIRS, or copy the file to ~/.config/fish/completions/."
