#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Runs one command inside a stock Debian kernel under qemu (TCG, no KVM):
#
#   scripts/stock-guest-run.sh --kernel 6.1|6.12 [--rw DIR] -- COMMAND [ARG...]
#
# The guest boots build/stock-kernel/VERSION/bzImage (scripts/build-stock-kernel.sh)
# with an initramfs holding only scripts/stock-guest-init.c: it mounts the
# host's root file system read-only over 9p and chroots into it, so that the
# host's programs and libraries (bash, ip, libbpf, the test binaries just
# built, ASan's runtime) run unchanged on the guest's kernel. DIR (default:
# the working directory) is shared read-write at the same path: what the
# command writes there, the host sees. The command gets this script's
# working directory, environment and standard input; its standard output and
# error come back on ours (one stream when ours are the same file, so that
# `2>&1` keeps the order) and its exit status is ours. A guest that does not
# finish within BPFSK_QEMU_TIMEOUT seconds (default 300), or crashes, exits
# 125 with its console on stderr. BPFSK_QEMU_SMP sets the vCPUs (default 1: the kernel has no ACPI to find more).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
timeout_s=${BPFSK_QEMU_TIMEOUT:-300}
smp=${BPFSK_QEMU_SMP:-1}

die() { printf 'stock-guest-run: error: %s\n' "$*" >&2; exit 125; }

series=
rw=$PWD
while [ $# -gt 0 ]; do
	case "$1" in
		--kernel) series=${2:-}; shift 2 ;;
		--rw) rw=${2:-}; shift 2 ;;
		--) shift; break ;;
		*) die "unknown option $1 (usage: $0 --kernel 6.1|6.12 [--rw DIR] -- COMMAND...)" ;;
	esac
done
[ $# -gt 0 ] || die "no command (usage: $0 --kernel 6.1|6.12 [--rw DIR] -- COMMAND...)"
case "$series" in
	6.1 | 6.12) ;;
	*) die "--kernel '$series': 6.1 or 6.12" ;;
esac
kernel=$build/stock-kernel/$series/bzImage
[ -r "$kernel" ] || die "$kernel missing: run scripts/build-stock-kernel.sh $series first"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (scripts/install-deps.sh)"
rw=$(cd "$rw" && pwd -P)
# the paths go on the kernel command line, which splits at spaces
case "$rw" in *[[:space:]]*) die "--rw $rw: a path with spaces cannot be shared" ;; esac

# The init, built once per change of its source (atomically: lit runs tests
# in parallel).
init_dir=$build/stock-kernel
init=$init_dir/init.cpio
if [ ! -e "$init" ] || [ "$repo/scripts/stock-guest-init.c" -nt "$init" ]; then
	stage=$(mktemp -d "$init_dir/.init.XXXXXX")
	gcc -static -O2 -Wall -Wextra -Werror -o "$stage/init" "$repo/scripts/stock-guest-init.c"
	(cd "$stage" && echo init | cpio -o -H newc --quiet) >"$stage/init.cpio"
	mv "$stage/init.cpio" "$init"
	rm -rf "$stage"
fi

x=$(mktemp -d "$rw/.stock-guest.XXXXXX")
trap 'rm -rf "$x"' EXIT
printf '%s\0' "$@" >"$x/argv"
env -0 >"$x/env"
printf '%s' "$PWD" >"$x/cwd"
if [ -t 0 ]; then : >"$x/stdin"; else cat >"$x/stdin"; fi
merged=0
if [ "$(stat -L -c %d:%i /proc/$$/fd/1)" = "$(stat -L -c %d:%i /proc/$$/fd/2)" ]; then
	: >"$x/merge"
	merged=1
fi

set +e
timeout --foreground -k 5 "$timeout_s" qemu-system-x86_64 -accel tcg,thread=multi -m 1024 -smp "$smp" \
	-no-reboot -display none -monitor none -serial "file:$x/console" \
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
	-virtfs "local,path=$rw,mount_tag=work,security_model=none,multidevs=remap" \
	-kernel "$kernel" -initrd "$init" \
	-append "console=ttyS0 quiet panic=-1 oops=panic no_timer_check bpfsk_rw=$rw bpfsk_x=$x" \
	</dev/null >"$x/qemu.log" 2>&1
qrc=$?
set -e
if [ ! -e "$x/rc" ]; then
	{
		if [ $qrc = 124 ] || [ $qrc = 137 ]; then
			echo "stock-guest-run: error: the $series guest did not finish within $timeout_s s"
		else
			echo "stock-guest-run: error: the $series guest ended without running the command (qemu: $qrc)"
		fi
		cat "$x/qemu.log" "$x/console" 2>/dev/null
	} >&2
	exit 125
fi
cat "$x/out"
[ $merged = 1 ] || cat "$x/err" >&2
exit "$(cat "$x/rc")"
