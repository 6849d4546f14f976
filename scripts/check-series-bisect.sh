#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Pre-submission check (not part of scripts/test.sh): is the kernel series
# bisectable? Applies kernel-patches/*.patch to a pristine extraction of
# Debian's linux-source-6.12 one patch at a time and builds after each one:
# the kernel with the test config (tinyconfig + kernel-patches/config.fragment,
# regenerated after every patch, since a patch may add a Kconfig option) and,
# for a patch that touches tools/lib/bpf, the static libbpf. With --arm64 the
# arm64 kernel (config-arm64.fragment) is built after each patch too.
#
#   scripts/check-series-bisect.sh [--arm64] [--quick] [--keep]
#
# --quick: after each patch compile only the objects of the kernel .c files
# the whole series touches (those of the other architecture left out), not
# the image; the image is built after the last patch only. It catches a
# patch that does not compile, not one that compiles but does not link.
#
# Prints one line per patch ("NNNN ok x86_64 12 s arm64 30 s" or
# "NNNN FAIL ..."), then a summary; stops at the first failure and exits 1
# (2 on a usage or setup error). A patch that does not apply with patch -p1
# without fuzz or offset is a failure too.
#
# Work directory: $BPFSK_BISECT_DIR, default $BPFSK_BUILD/bisect (or
# build/bisect): its own tree and object directories, never the kernel cache
# that scripts/build-kernel.sh uses. Removed at the end unless --keep. The
# first build is cold (a whole kernel per architecture): run it niced.
# BPFSK_KERNEL_JOBS sets make's parallelism (default 2).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
work=${BPFSK_BISECT_DIR:-$build/bisect}
jobs=${BPFSK_KERNEL_JOBS:-2}
tarball=/usr/src/linux-source-6.12.tar.xz
arm64=0
keep=0
quick=0

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
for a in "$@"; do
	case "$a" in
		--arm64) arm64=1 ;;
		--keep) keep=1 ;;
		--quick) quick=1 ;;
		-h | --help) usage; exit 0 ;;
		*) printf 'check-series-bisect: unknown argument %s\n' "$a" >&2; usage >&2; exit 2 ;;
	esac
done

die() { printf 'check-series-bisect: error: %s\n' "$*" >&2; exit 2; }
[ -r "$tarball" ] || die "$tarball missing (scripts/install-deps.sh)"
mapfile -t patches < <(find "$repo/kernel-patches" -maxdepth 1 -name '[0-9]*.patch' ! -name '0000-cover-letter.patch' | LC_ALL=C sort)
[ ${#patches[@]} -gt 0 ] || die "no patches in $repo/kernel-patches"
[ $arm64 = 0 ] || command -v aarch64-linux-gnu-gcc >/dev/null || die "aarch64-linux-gnu-gcc missing"

rm -rf "$work"
mkdir -p "$work"
tar -C "$work" -xf "$tarball"
tree=$work/linux-source-6.12
[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT

# config_and_build ARCH: regenerate the config from tinyconfig + fragment in
# $work/obj-ARCH (only replaced when it changes) and build the image there
config_and_build() {
	local arch=$1 obj=$work/obj-$1 cfg=$work/cfg-$1 karch=() fragment image
	if [ "$arch" = arm64 ]; then
		karch=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
		fragment=$repo/kernel-patches/config-arm64.fragment
		image=Image
	else
		fragment=$repo/kernel-patches/config.fragment
		image=bzImage
	fi
	mkdir -p "$obj"
	rm -rf "$cfg"
	mkdir -p "$cfg"
	make -s -C "$tree" O="$cfg" "${karch[@]}" tinyconfig >/dev/null
	env "${karch[@]}" "$tree/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" "$fragment" >/dev/null 2>&1
	make -s -C "$tree" O="$cfg" "${karch[@]}" olddefconfig >/dev/null
	if ! cmp -s "$cfg/.config" "$obj/.config"; then
		cp "$cfg/.config" "$obj/.config"
	fi
	if [ "$2" = objects ]; then
		local objs=() f
		make -s -C "$tree" O="$obj" "${karch[@]}" -j"$jobs" prepare
		for f in "${series_c[@]}"; do
			case "$f" in
				arch/x86/*) [ "$arch" = x86_64 ] || continue ;;
				arch/arm64/*) [ "$arch" = arm64 ] || continue ;;
			esac
			[ -e "$tree/$f" ] || continue
			objs+=("${f%.c}.o")
		done
		[ ${#objs[@]} -eq 0 ] || make -s -C "$tree" O="$obj" "${karch[@]}" -j"$jobs" "${objs[@]}"
	else
		make -s -C "$tree" O="$obj" "${karch[@]}" -j"$jobs" $image
	fi
}

build_libbpf() {
	mkdir -p "$work/libbpf"
	make -s -C "$tree/tools/lib/bpf" OUTPUT="$work/libbpf/" BUILD_STATIC_ONLY=1 -j"$jobs" \
		"$work/libbpf/libbpf.a" >/dev/null
}

# the kernel .c files the series touches (for --quick)
mapfile -t series_c < <(cat "${patches[@]}" | sed -n 's|^+++ b/||p' | grep -v '^tools/' | grep '\.c$' | sort -u)

n=0
last=${patches[${#patches[@]}-1]}
total_start=$(date +%s)
for p in "${patches[@]}"; do
	name=$(basename "$p")
	num=${name%%-*}
	log=$work/$num.log
	line="$num"
	if ! out=$(patch -d "$tree" -p1 -f --no-backup-if-mismatch <"$p" 2>&1); then
		printf '%s FAIL does not apply: %s\n' "$num" "$name"
		printf '%s\n' "$out" | tail -5
		printf 'bisect: %d of %d patches built, FAILED at %s\n' "$n" "${#patches[@]}" "$name"
		exit 1
	fi
	if grep -Eq '(offset|fuzz) [0-9]+' <<<"$out"; then
		printf '%s FAIL applies only with offset or fuzz: %s\n' "$num" "$name"
		printf '%s\n' "$out" | grep -E 'offset|fuzz' | head -5
		printf 'bisect: %d of %d patches built, FAILED at %s\n' "$n" "${#patches[@]}" "$name"
		exit 1
	fi
	archs=(x86_64)
	[ $arm64 = 0 ] || archs+=(arm64)
	for arch in "${archs[@]}"; do
		s=$(date +%s)
		what=image
		[ $quick = 0 ] || [ "$p" = "$last" ] || what=objects
		if ! config_and_build "$arch" "$what" >"$log" 2>&1; then
			printf '%s FAIL %s build: %s\n' "$num" "$arch" "$name"
			grep -E 'error|Error' "$log" | head -10
			printf 'bisect: %d of %d patches built, FAILED at %s (%s)\n' "$n" "${#patches[@]}" "$name" "$arch"
			exit 1
		fi
		line+=" ok $arch ($what) $(( $(date +%s) - s )) s"
	done
	if grep -q '^+++ b/tools/lib/bpf/' "$p"; then
		s=$(date +%s)
		if ! build_libbpf >"$log" 2>&1; then
			printf '%s FAIL libbpf build: %s\n' "$num" "$name"
			grep -E 'error|Error' "$log" | head -10
			printf 'bisect: %d of %d patches built, FAILED at %s (libbpf)\n' "$n" "${#patches[@]}" "$name"
			exit 1
		fi
		line+=" libbpf $(( $(date +%s) - s )) s"
	fi
	n=$((n + 1))
	printf '%s  %s\n' "$line" "$name"
done
printf 'bisect: all %d patches apply without offset or fuzz and build (%s%s) in %d s\n' \
	"$n" "x86_64$([ $arm64 = 0 ] || echo ', arm64')" \
	"$([ $quick = 0 ] || echo '; --quick: objects after each patch, image after the last')" \
	"$(( $(date +%s) - total_start ))"
