#!/usr/bin/env bash
# Release build of todosync (plus any other products named), as users run it:
#   scripts/build-release.sh [product ...]      default product: todosync
# Prints the folder holding the programs on its last line.
#
# Start-up is most of a command's time, so (docs/PERFORMANCE.md):
# - the Swift runtime is linked statically (--static-swift-stdlib);
# - libgit2 and the libraries only it uses (OpenSSL's libcrypto for SSH, zlib, PCRE2,
#   http-parser) are linked statically where Debian ships their archives, through a linker script
#   named libgit2.so and a libgit2.pc that points at it (PKG_CONFIG_PATH): SwiftPM links the system
#   library as `-lgit2` and offers no other hook. mbedTLS and Kerberos stay shared (Debian has
#   no static libgssapi_krb5, and libgit2's mbedTLS build wants the shared one);
# - so are libstdc++ and libgcc's unwinder, which the Swift runtime needs.
# Where any archive is missing, libgit2 is linked as a shared library, as `swift build` does.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-libgit2.sh

products=("$@")
if [ ${#products[@]} -eq 0 ]; then products=(todosync); fi

static_dir="$PWD/.build/static-libgit2"
libdir=$(pkg-config --variable=libdir libgit2)
includedir=$(pkg-config --variable=includedir libgit2)
archives=(libgit2.a libhttp_parser.a libssh2.a libcrypto.a libpcre2-8.a libz.a)
shared=(libmbedtls.so libmbedx509.so libmbedcrypto.so libgssapi_krb5.so.2)
inputs=()
for file in "${archives[@]}" "${shared[@]}"; do
  if [ -e "$libdir/$file" ]; then inputs+=("$libdir/$file"); else inputs=(); break; fi
done
if [ ${#inputs[@]} -gt 0 ]; then
  mkdir -p "$static_dir"
  printf '/* libgit2 and its private dependencies, as archives where Debian has them. */\nINPUT(%s)\n' \
    "${inputs[*]}" > "$static_dir/libgit2.so.new"
  printf 'Name: libgit2\nDescription: libgit2, linked statically (%s)\nVersion: %s\nLibs: -L%s -lgit2\nCflags: -I%s\n' \
    "$static_dir/libgit2.so" "$(pkg-config --modversion libgit2)" "$static_dir" "$includedir" > "$static_dir/libgit2.pc.new"
  # The C++ runtime the Swift runtime needs and its unwinder, from their archives too: this
  # folder comes first on the search path, so a script here answers -lstdc++ and -lgcc_s.
  runtime=()
  for pair in "libstdc++:$(clang -print-file-name=libstdc++.a)" \
    "libgcc_s:$(clang -print-file-name=libgcc_eh.a)"; do
    name=${pair%%:*}.so archive=${pair#*:}
    if [ -e "$archive" ]; then
      printf '/* linked statically: one shared library fewer to load at every start */\nINPUT(%s)\n' "$archive" > "$static_dir/$name.new"
      runtime+=("$name")
    elif [ -e "$static_dir/$name" ]; then
      rm "$static_dir/$name"
      relink=1
    fi
  done
  # Rewritten only when different, so that SwiftPM does not relink for nothing.
  for file in libgit2.so libgit2.pc "${runtime[@]}"; do
    if cmp -s "$static_dir/$file.new" "$static_dir/$file"; then rm "$static_dir/$file.new"
    else mv "$static_dir/$file.new" "$static_dir/$file"; relink=1; fi
  done
  export PKG_CONFIG_PATH="$static_dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
else
  echo "note: some of libgit2's static libraries are missing in $libdir; linking it as a shared library" >&2
fi

flags=(-c release --static-swift-stdlib)
# SwiftPM does not see the scripts above change: programs linked before are linked again.
if [ -n "${relink:-}" ]; then
  bin=$(swift build "${flags[@]}" --show-bin-path)
  for product in "${products[@]}"; do rm -f "$bin/$product"; done
fi
for product in "${products[@]}"; do
  echo "building $product (release)" >&2
  if ! out=$(swift build "${flags[@]}" --product "$product" 2>&1); then echo "$out" >&2; exit 1; fi
done
swift build "${flags[@]}" --show-bin-path
