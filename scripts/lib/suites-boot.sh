# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# shellcheck shell=bash
# Sourced by scripts/upstream-suites.sh and scripts/upstream-suites-progs.sh:
# what differs between the arches for a suites guest, its initramfs, and the
# qemu boot. The caller defines log and die.

# suites_arch ARCH: normalizes ARCH (x86_64 or arm64) into "arch" and sets
# the guest's compiler and libraries ("cc", "triplet"), the kernel image's
# name ("image"), the qemu command ("qemu", an array) and the console
# arguments ("console"). x86_64 boots with clocksource=hpet: under TCG on a
# loaded host the TSC calibration can be off by 10x (seen: 286 MHz detected
# against HPET's 2791 MHz), and the guest's clock with it. arm64's
# architected timer has a fixed frequency given by qemu; -M virt, CPU
# BPFSK_QEMU_CPU (default cortex-a57), console on the PL011.
# shellcheck disable=SC2034  # the caller's variables
suites_arch() {
	case "$1" in
		x86_64 | x86 | amd64)
			arch=x86_64
			cc=gcc
			triplet=x86_64-linux-gnu
			image=bzImage
			qemu=(qemu-system-x86_64)
			console="console=ttyS0 clocksource=hpet"
			;;
		arm64 | aarch64)
			arch=arm64
			cc=aarch64-linux-gnu-gcc
			triplet=aarch64-linux-gnu
			image=Image
			qemu=(qemu-system-aarch64 -M virt -cpu "${BPFSK_QEMU_CPU:-cortex-a57}")
			console="console=ttyAMA0"
			;;
		*) die "--arch $1: x86_64 or arm64" ;;
	esac
}

# suites_guest_tools DIR GUEST_SOURCE: builds DIR/init (scripts/qemu-init.c)
# and DIR/guest (GUEST_SOURCE), static, for the guest's arch.
suites_guest_tools() {
	local scripts
	scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	"$cc" -static -O2 -Wall -Werror -o "$1/init" "$scripts/qemu-init.c"
	"$cc" -static -O2 -Wall -Wextra -Werror -o "$1/guest" "$2"
}

# copy_libraries BINARY STAGE: copies a dynamic executable's loader (same
# path) and the shared libraries it needs, recursively, into the staging
# directory's /usr/lib/<triplet>, which the loader searches. Read from the
# ELF headers rather than with ldd, which cannot run an arm64 binary; the
# libraries are the installed multiarch ones (libelf1:arm64, zlib1g:arm64,
# ... for arm64).
copy_libraries() {
	local binary=$1 stage=$2 interp lib path todo=("$1") seen=" "
	interp=$("$triplet-readelf" -lW "$binary" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	[ -n "$interp" ] || die "$binary: no program interpreter"
	mkdir -p "$stage$(dirname "$interp")" "$stage/usr/lib/$triplet"
	cp -L "$interp" "$stage$interp"
	while [ ${#todo[@]} -gt 0 ]; do
		for lib in $("$triplet-readelf" -dW "${todo[0]}" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			case "$seen" in *" $lib "*) continue ;; esac
			seen="$seen$lib "
			path=
			for dir in /lib/$triplet /usr/lib/$triplet; do
				[ -e "$dir/$lib" ] && { path=$dir/$lib; break; }
			done
			[ -n "$path" ] || die "$binary needs $lib, not found in /usr/lib/$triplet"
			cp -L "$path" "$stage/usr/lib/$triplet/$lib"
			todo+=("$path")
		done
		todo=("${todo[@]:1}")
	done
}

# suites_initramfs STAGE CPIO: packs the staging directory into CPIO.
suites_initramfs() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) >"$2"
}

# suites_qemu KERNEL INITRD MEMORY_MB APPEND: boots KERNEL on one vCPU under
# TCG with "$console APPEND" as its command line, its console on stdout with
# the carriage returns removed (unbuffered: a log grows as it runs), killed
# after $boot_timeout seconds. Its status is timeout's (the caller runs with
# pipefail): 124 or 137 when the boot timed out.
# shellcheck disable=SC2154  # boot_timeout: the caller's
suites_qemu() {
	timeout --foreground -k 5 "$boot_timeout" \
		"${qemu[@]}" -accel tcg -m "$3" -smp 1 -no-reboot -display none -monitor none -serial stdio \
		-kernel "$1" -initrd "$2" -append "$console $4" </dev/null 2>&1 | sed -u 's/\r//g'
}
