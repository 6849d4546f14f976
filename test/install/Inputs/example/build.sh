#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# build.sh ROOT PREFIX BPF_CLANG OUT: builds the example as a user of an
# installed tree would, from the installed files only. ROOT is where the tree
# is (a DESTDIR or a directory a .deb was extracted into), PREFIX its prefix
# (/usr); the .pc file is found through PKG_CONFIG_PATH alone and every
# include and library path comes from it (no path into the source or build
# tree: the sources are copied into OUT first). bpfld is the installed one.
# BPF_CLANG compiles the BPF side.
set -euo pipefail
root=$1 prefix=$2 bpf_clang=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
multiarch=$(gcc -print-multiarch)

mkdir -p "$out"
cp "$here/counter.bpf.c" "$here/flip.c" "$out/"
cd "$out"
pcdir=
for d in "$root$prefix/lib/$multiarch/pkgconfig" "$root$prefix/lib/pkgconfig"; do
	[ -r "$d/libbpfkeys.pc" ] && pcdir=$d && break
done
[ -n "$pcdir" ] || { echo "build.sh: error: no libbpfkeys.pc under $root$prefix/lib" >&2; exit 1; }
export PKG_CONFIG_PATH=$pcdir
# the installed .pc's own directories (it finds its prefix from where it is)
includedir=$(pkg-config --variable=includedir libbpfkeys)
cflags=$(pkg-config --cflags libbpfkeys)
libs=$(pkg-config --libs libbpfkeys)
# the shared library sits under a temporary root, off the dynamic loader's
# path: an rpath to the .pc's libdir stands in for an install into /usr
rpath=$(realpath "$(pkg-config --variable=libdir libbpfkeys)")
echo "pkg-config: version $(pkg-config --modversion libbpfkeys)"
echo "pkg-config: includedir $(realpath "$includedir")"

# BPF side: the installed <bpf/bpf_static_keys.h>, linked by the installed bpfld
"$bpf_clang" --target=bpf -O2 -g -mcpu=v4 -idirafter "/usr/include/$multiarch" \
	-I"$includedir" -c counter.bpf.c -o counter.bpf.o
"$root$prefix/bin/bpfld" -o counter.linked.o counter.bpf.o
# user side: libbpfkeys through pkg-config
# shellcheck disable=SC2086
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror $cflags flip.c -o flip $libs -Wl,-rpath,"$rpath"
echo "built: counter.linked.o flip"
