#!/usr/bin/env bash
# Installs what the tests use beside libgit2 where missing: cmark-gfm (Debian's, the engine
# behind GitHub's Markdown, with its GFM spec), the witness of which lines are task items;
# OpenSSH's server and client (a real sshd on loopback that sync reaches through ssh); nginx,
# fcgiwrap and openssl (a TLS web server with basic auth in front of git http-backend);
# tinyproxy (a forward proxy the https tests go through); gnupg (OpenPGP commit signing); make,
# man-db and python3 (make install, man -l on the page it installs, the launchd plist's check);
# tmux, vim and emacs-nox (docs/EDITORS.md's snippets, checked on a real terminal's screen);
# python3-venv and, in .build/test-tools/venv, Python's icalendar from PyPI (the independent
# iCalendar parser the calendar feed's tests read it with).
set -euo pipefail
missing=()
if ! command -v cmark-gfm >/dev/null 2>&1 || [ ! -f /usr/share/doc/cmark-gfm/spec.txt.gz ]; then
  missing+=(cmark-gfm)
fi
if [ ! -x /usr/sbin/sshd ] || ! command -v ssh-keygen >/dev/null 2>&1 || ! command -v ssh-agent >/dev/null 2>&1; then
  missing+=(openssh-server openssh-client)
fi
if [ ! -x /usr/sbin/nginx ]; then missing+=(nginx); fi
if [ ! -x /usr/sbin/fcgiwrap ]; then missing+=(fcgiwrap); fi
if ! command -v openssl >/dev/null 2>&1; then missing+=(openssl); fi
if [ ! -x /usr/bin/tinyproxy ]; then missing+=(tinyproxy); fi
if [ ! -x /usr/bin/gpg-agent ] || [ ! -x /usr/bin/gpgconf ]; then missing+=(gnupg); fi
if ! command -v make >/dev/null 2>&1; then missing+=(make); fi
if [ ! -x /usr/bin/man ]; then missing+=(man-db); fi
if [ ! -x /usr/bin/python3 ]; then missing+=(python3); fi
if [ ! -x /usr/bin/tmux ]; then missing+=(tmux); fi
if [ ! -x /usr/bin/vim ] || ! /usr/bin/vim --version | grep -q '+conceal'; then missing+=(vim); fi
if [ ! -x /usr/bin/emacs ]; then missing+=(emacs-nox); fi
if ! /usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then missing+=(python3-venv); fi
if [ ${#missing[@]} -gt 0 ]; then
  "$(dirname "$0")/apt-install.sh" "${missing[@]}"
fi
venv="$(dirname "$0")/../.build/test-tools/venv"
if ! "$venv/bin/python" -c 'import icalendar' >/dev/null 2>&1; then
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'icalendar>=6,<8'
fi
