#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Boots build/kernel/bzImage under qemu (TCG, no KVM) with an initramfs of
# statically linked test programs and runs them.
#
#   scripts/qemu-run.sh [TEST...]
#
# TEST is a name (static_key_switch), a path (test/kernel/static_key_switch.c)
# or "all" (the default): every test/kernel/*.c. Each is compiled with
# gcc -static against the patched uapi headers and static libbpf that
# scripts/build-kernel.sh put in build/kernel/. The guest's serial console
# (kernel messages and the tests' output) is printed on stdout; the exit
# status is non-zero when a test fails, the guest does not finish within
# BPFSK_QEMU_TIMEOUT seconds (default 120), or the kernel panics.
# BPFSK_QEMU_FILES=DIR copies DIR into the initramfs as /files (objects and
# tools a test uses); BPFSK_QEMU_SMP sets the number of vCPUs (default 1);
# BPFSK_QEMU_TCG_THREAD=single runs them on one host thread (default multi;
# see test/e2e/stress-flip-while-running-smp.c for why); BPFSK_QEMU_ARGS adds
# options to qemu's command line, split at spaces (bench/insn-count: -icount).
# BPFSK_ARCH=arm64 boots build/kernel-arm64/Image (scripts/build-kernel.sh
# with the same BPFSK_ARCH) on qemu-system-aarch64's "virt" machine
# (BPFSK_QEMU_CPU, default cortex-a57) with the console on the PL011, and
# builds the test programs with aarch64-linux-gnu-gcc against that tree's
# arm64 headers and libbpf. The default, x86_64, is the x86 kernel above.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
kout=$build/kernel
timeout_s=${BPFSK_QEMU_TIMEOUT:-120}
smp=${BPFSK_QEMU_SMP:-1}

die() { printf 'qemu-run: error: %s\n' "$*" >&2; exit 2; }

cc=gcc
image=bzImage
qemu=qemu-system-x86_64
qemu_machine=()
console_dev=ttyS0
# x86: skip the boot check that the 8254 timer reaches the IO-APIC; under TCG on a loaded host
# the check times out and the kernel panics ("IO-APIC + timer doesn't work!") before any test runs
kernel_args=no_timer_check
build_env=
case "${BPFSK_ARCH:-x86_64}" in
	x86_64 | x86 | amd64) ;;
	arm64 | aarch64)
		kout=$build/kernel-arm64
		cc=aarch64-linux-gnu-gcc
		image=Image
		qemu=qemu-system-aarch64
		qemu_machine=(-M virt -cpu "${BPFSK_QEMU_CPU:-cortex-a57}")
		console_dev=ttyAMA0
		kernel_args=
		build_env="BPFSK_ARCH=arm64 "
		command -v "$cc" >/dev/null || die "$cc missing (scripts/install-deps.sh)"
		;;
	*) die "BPFSK_ARCH=$BPFSK_ARCH: x86_64 or arm64" ;;
esac

[ -r "$kout/$image" ] || die "$kout/$image missing: run ${build_env}scripts/build-kernel.sh first"
[ -r "$kout/lib/libbpf.a" ] || die "$kout/lib/libbpf.a missing: run ${build_env}scripts/build-kernel.sh first"
command -v $qemu >/dev/null || die "$qemu missing (scripts/install-deps.sh)"

tests=()
if [ $# -eq 0 ] || [ "$1" = all ]; then
	for f in "$repo"/test/kernel/*.c; do tests+=("$f"); done
else
	for t in "$@"; do
		case "$t" in
			*.c) f=$t ;;
			*) f=$repo/test/kernel/$t.c ;;
		esac
		[ -r "$f" ] || die "no test $t ($f)"
		tests+=("$f")
	done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/qemu-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/root
mkdir -p "$stage/tests"

cflags=(-static -O2 -Wall -Wextra -Werror -Wno-unused-function
	-I"$kout/usr/include" -I"$kout/include" -I"$repo/runtime-headers/uapi"
	-I"$repo/test/kernel")
$cc -static -O2 -Wall -Werror -o "$stage/init" "$repo/scripts/qemu-init.c"
# bpftool from the patched tree, for tests that run it (absent: they fail)
if [ -x "$kout/bpftool" ]; then
	mkdir -p "$stage/bin"
	cp "$kout/bpftool" "$stage/bin/bpftool"
fi
names=()
for f in "${tests[@]}"; do
	name=$(basename "$f" .c)
	$cc "${cflags[@]}" -o "$stage/tests/$name" "$f" \
		"$kout/lib/libbpf.a" -lelf -lz -lzstd ||
		die "cannot compile $f"
	names+=("$name")
done
if [ -n "${BPFSK_QEMU_FILES:-}" ]; then
	[ -d "$BPFSK_QEMU_FILES" ] || die "BPFSK_QEMU_FILES=$BPFSK_QEMU_FILES is not a directory"
	mkdir -p "$stage/files"
	cp -r "$BPFSK_QEMU_FILES"/. "$stage/files/"
fi
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) >"$work/initramfs.cpio"

console=$work/console.log
set +e
timeout --foreground -k 5 "$timeout_s" $qemu "${qemu_machine[@]}" \
	-accel "tcg,thread=${BPFSK_QEMU_TCG_THREAD:-multi}" ${BPFSK_QEMU_ARGS:-} -m 512 -smp "$smp" -no-reboot \
	-display none -monitor none -serial stdio \
	-kernel "$kout/$image" -initrd "$work/initramfs.cpio" \
	-append "console=$console_dev panic=-1 oops=panic quiet${kernel_args:+ $kernel_args}" </dev/null |
	tr -d '\r' | tee "$console"
rc=${PIPESTATUS[0]}
set -e

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "qemu-run: FAIL: guest did not finish within $timeout_s s"
	exit 1
fi
status=0
for name in "${names[@]}"; do
	line=$(grep -a "^=== EXIT $name rc=" "$console" | tail -1 || true)
	if [ -z "$line" ]; then
		echo "qemu-run: FAIL: $name did not finish (guest crashed?)"
		status=1
	elif [ "${line##*rc=}" != 0 ]; then
		echo "qemu-run: FAIL: $name exited with ${line##*rc=}"
		status=1
	fi
done
grep -aq '^=== DONE' "$console" || { echo "qemu-run: FAIL: guest did not reach the end"; status=1; }
[ $status = 0 ] && echo "qemu-run: all ${#names[@]} test(s) passed"
exit $status
