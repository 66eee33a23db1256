# make install [PREFIX=~/.local]: builds the release program and installs it with its man page
# and bash/zsh/fish completions (scripts/install.sh does the work). make uninstall removes them.
PREFIX ?= $(HOME)/.local

.PHONY: install uninstall test demo
install:
	scripts/install.sh "$(PREFIX)"
uninstall:
	scripts/install.sh --uninstall "$(PREFIX)"
test:
	scripts/test.sh
demo:
	scripts/demo.sh
