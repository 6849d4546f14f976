#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Prints a directory holding the kernel's BPF static-linking selftests
# (linux-source-6.12: progs/linked_*.c, test_static_linked*.c and the headers
# they include) plus a vmlinux.h of the running kernel. Extracted once into
# /var/cache/bpfsk (keyed by the tarball's size+mtime and the kernel release).
set -euo pipefail
tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$tarball" ] || { echo "kernel-selftests.sh: $tarball missing (apt-get install linux-source-6.12)" >&2; exit 1; }
key=$(stat -c '%s-%Y' "$tarball")-$(uname -r)
cache=${BPFSK_CACHE:-/var/cache/bpfsk}/linker-selftests-$key
if [ ! -f "$cache/.done" ]; then
	mkdir -p "$cache.tmp"
	tar -xJf "$tarball" -C "$cache.tmp" --strip-components=1 --wildcards \
		'linux-source-6.12/tools/testing/selftests/bpf/progs/linked_funcs*.c' \
		'linux-source-6.12/tools/testing/selftests/bpf/progs/linked_vars*.c' \
		'linux-source-6.12/tools/testing/selftests/bpf/progs/linked_maps*.c' \
		'linux-source-6.12/tools/testing/selftests/bpf/progs/test_static_linked*.c' \
		'linux-source-6.12/tools/testing/selftests/bpf/progs/bpf_misc.h' \
		'linux-source-6.12/tools/testing/selftests/bpf/progs/bpf_compiler.h' \
		'linux-source-6.12/tools/testing/selftests/bpf/prog_tests/linked_*.c' \
		'linux-source-6.12/tools/testing/selftests/bpf/prog_tests/static_linked.c'
	bpftool btf dump file /sys/kernel/btf/vmlinux format c \
		> "$cache.tmp/tools/testing/selftests/bpf/progs/vmlinux.h"
	rm -rf "$cache"
	mv "$cache.tmp" "$cache"
	touch "$cache/.done"
fi
echo "$cache/tools/testing/selftests/bpf/progs"
