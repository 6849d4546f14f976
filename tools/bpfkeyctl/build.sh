#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Builds build/bin/bpfkeyctl, statically linked against the patched libbpf
# that scripts/build-kernel.sh puts in build/kernel/ (so that it runs in the
# qemu initramfs as well as on the host). Rebuilds only when a source or the
# library is newer than the binary; the output is replaced atomically, so
# concurrent callers (lit tests) are safe.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
kout=${BPFSK_LIBBPF_DIR:-$build/kernel}
out=$build/bin/bpfkeyctl
src=$repo/tools/bpfkeyctl/bpfkeyctl.c

die() { printf 'bpfkeyctl/build.sh: error: %s\n' "$*" >&2; exit 1; }
[ -r "$kout/lib/libbpf.a" ] || die "$kout/lib/libbpf.a missing: run scripts/build-kernel.sh first"
if [ -x "$out" ] && [ "$out" -nt "$src" ] && [ "$out" -nt "$kout/lib/libbpf.a" ] &&
   [ "$out" -nt "$0" ]; then
	exit 0
fi
mkdir -p "$build/bin"
tmp=$(mktemp "$build/bin/.bpfkeyctl.XXXXXX")
trap 'rm -f "$tmp"' EXIT
gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -static \
	-I"$kout/include" -I"$kout/usr/include" \
	-o "$tmp" "$src" "$kout/lib/libbpf.a" -lelf -lz -lzstd
chmod 755 "$tmp"
mv -f "$tmp" "$out"
trap - EXIT
