#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Builds what scripts/upstream-suites.sh runs: two kernels of Debian's
# linux-source-6.12 6.12.118 with the same "suites" config,
#
#   x86_64   tinyconfig + kernel-patches/config.fragment (the test config)
#            + kernel-patches/config-suites.fragment
#   arm64    ARCH=arm64 tinyconfig + kernel-patches/config-arm64.fragment
#            (the arm64 test config) + kernel-patches/config-suites.fragment,
#            cross-built with CROSS_COMPILE=aarch64-linux-gnu-
#
# (the arch: BPFSK_ARCH, x86_64 by default, as for scripts/build-kernel.sh),
#
#   baseline   the tree as Debian ships it
#   patched    the tree with kernel-patches/*.patch applied
#
# and, from each variant's tree, upstream's test_verifier and test_maps
# (tools/testing/selftests/bpf, with that tree's libbpf) and bpf_testmod.ko
# (built against that variant's kernel). Outputs, per variant:
#
#   $BPFSK_CACHE/suites-<arch>/out-<variant>/
#     bzImage (x86_64) or Image (arm64), config, bpf_testmod.ko, test_verifier,
#     test_verifier.cases   number of test_verifier cases (its tests[] array)
#     vmlinux.btf           the kernel's BTF (its .BTF section)
#     maps/                 test_maps and the BPF objects it opens, built by
#                           scripts/upstream-suites-maps.sh (clang-22)
#
#   scripts/upstream-suites-build.sh [baseline|patched]...   (default: both)
#
# Cached like scripts/build-kernel.sh, but in a tree of its own (the test
# command's tree is left alone): $BPFSK_CACHE/suites-<arch>/src is extracted
# once; both variants are built in one object directory from that tree,
# switching the series in or out, so that the second variant only rebuilds
# what the series touches. A variant whose inputs (package version, tarball
# size, both fragments, this script and scripts/lib/kernel-series.sh (the
# series switching it shares with scripts/build-kernel.sh), the cross
# compiler, and for "patched" the series) have not changed only checks its
# stamp. test_maps has a stamp of its own, keyed by
# the variant's key, scripts/upstream-suites-maps.sh and clang-22's version:
# a change to how test_maps is built rebuilds test_maps only (after a series
# switch if the tree is on the other variant). BPFSK_KERNEL_JOBS sets make's
# parallelism (default 2).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${BPFSK_CACHE:-/var/cache/bpfsk}
jobs=${BPFSK_KERNEL_JOBS:-2}
patches_dir=$repo/kernel-patches
arch=${BPFSK_ARCH:-x86_64}
case "$arch" in
	x86_64 | x86 | amd64)
		arch=x86_64
		karch=()
		cross=
		fragments=("$patches_dir/config.fragment" "$patches_dir/config-suites.fragment")
		image_src=arch/x86/boot/bzImage
		image=bzImage
		;;
	arm64 | aarch64)
		arch=arm64
		cross=aarch64-linux-gnu-
		karch=(ARCH=arm64 "CROSS_COMPILE=$cross")
		fragments=("$patches_dir/config-arm64.fragment" "$patches_dir/config-suites.fragment")
		image_src=arch/arm64/boot/Image
		image=Image
		;;
	*) printf 'upstream-suites-build: error: BPFSK_ARCH=%s: x86_64 or arm64\n' "$arch" >&2; exit 1 ;;
esac
tarball=/usr/src/linux-source-6.12.tar.xz
pkg=linux-source-6.12
want_version=6.12.118
top=$cache/suites-$arch
src_root=$top/src
tree=$src_root/linux-source-6.12
obj=$top/obj
selftests=$tree/tools/testing/selftests/bpf

log() { printf 'upstream-suites-build: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(baseline patched)
for v in "${variants[@]}"; do
	case "$v" in
		baseline | patched) ;;
		*) die "unknown variant '$v': baseline or patched" ;;
	esac
done

# --- inputs ------------------------------------------------------------------
[ -r "$tarball" ] || die "$tarball missing: apt-get install $pkg (scripts/install-deps.sh)"
pkg_version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
case "$pkg_version" in
	"$want_version"-*) ;;
	*) die "$pkg is '$pkg_version', the series is for $want_version" ;;
esac
for tool in gcc "${cross}gcc" make flex bison bc pahole "${cross}nm" "${cross}objcopy"; do
	command -v "$tool" >/dev/null || die "$tool missing (scripts/install-deps.sh)"
done
# patches, series_hash, applied_hash, switch_series
series_lib=$repo/scripts/lib/kernel-series.sh
# shellcheck source=lib/kernel-series.sh
. "$series_lib"
series_patches "$patches_dir"
series_hash=$(series_hash "${patches[@]}")

variant_key() {
	{
		echo "$1 $pkg_version $(stat -c %s "$tarball")"
		sha256sum "${fragments[@]}" "$0" "$series_lib" | cut -d' ' -f1
		[ "$arch" = x86_64 ] || { echo "$arch"; "${cross}gcc" --version | head -1; }
		[ "$1" = baseline ] || echo "$series_hash"
	} | sha256sum | cut -c1-16
}

# --- the tree and its series ---------------------------------------------------
extract() {
	log "extracting $tarball"
	rm -rf "$src_root"
	mkdir -p "$src_root"
	tar -C "$src_root" -xf "$tarball"
	mkdir -p "$tree/.bpfsk-applied"
	local v
	v=$(make -s -C "$tree" kernelversion 2>/dev/null) || v="(unreadable)"
	[ "$v" = "$want_version" ] || die "tarball has kernel $v, expected $want_version"
}

# --- config: the same for both variants -------------------------------------------
# Later fragments override earlier ones (config-suites.fragment turns IPv6 on);
# every option of the merged list must end up in .config as asked.
# The series' own Kconfig options (CONFIG_BPF_STATIC_KEY_DEBUG) do not exist in
# the baseline tree: there they are the one allowed difference between the two
# .configs, and are not asked of it.
series_options=$(cat "${patches[@]}" | sed -n 's/^+config \([A-Z0-9_]*\)$/CONFIG_\1/p' | sort -u)

configure() {
	local variant=$1 cfgdir=$top/cfg merged=$top/fragment.merged missing
	rm -rf "$cfgdir"
	mkdir -p "$cfgdir" "$obj"
	make -s -C "$tree" O="$cfgdir" "${karch[@]}" tinyconfig >/dev/null
	env "${karch[@]}" "$tree/scripts/kconfig/merge_config.sh" -m -O "$cfgdir" "$cfgdir/.config" "${fragments[@]}" >/dev/null
	make -s -C "$tree" O="$cfgdir" "${karch[@]}" olddefconfig >/dev/null
	# the last word on each option, in the order merge_config.sh applied them
	cat "${fragments[@]}" | sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)$/\1 \2/p;
		s/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1 n/p' |
		awk '{ v[$1] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
		     END { for (i = 1; i <= n; i++) print order[i], v[order[i]] }' >"$merged"
	missing=$(while read -r opt val; do
		if [ "$variant" = baseline ] && grep -qx "$opt" <<<"$series_options"; then
			continue
		elif [ "$val" = n ]; then
			! grep -q "^$opt=" "$cfgdir/.config" || echo " $opt=n"
		else
			grep -qx "$opt=$val" "$cfgdir/.config" || echo " $opt=$val"
		fi
	done <"$merged")
	[ -z "$missing" ] || die "config fragments not honoured:$missing"
	if ! cmp -s "$cfgdir/.config" "$obj/.config"; then
		cp "$cfgdir/.config" "$obj/.config"
		make -s -C "$tree" O="$obj" "${karch[@]}" olddefconfig >/dev/null
	fi
	rm -rf "$cfgdir"
}

# --- one variant ---------------------------------------------------------------------
build_variant() {
	local variant=$1 key out stamp start size count want
	key=$(variant_key "$variant")
	out=$top/out-$variant
	stamp=$out/stamp-$key
	if [ -e "$stamp" ]; then
		log "$variant up to date ($key): $out"
		return 0
	fi
	start=$(date +%s)
	[ -d "$tree/.bpfsk-applied" ] || extract
	if [ "$variant" = baseline ]; then want=none; else want=$series_hash; fi
	switch_series "$want" "$top/mtimes"
	configure "$variant"

	log "$variant: building $arch $image (-j$jobs)"
	make -s -C "$tree" O="$obj" "${karch[@]}" -j"$jobs" "$image" modules
	rm -rf "$out"
	mkdir -p "$out"
	cp "$obj/$image_src" "$out/$image"
	cp "$obj/.config" "$out/config"
	# test_maps' vmlinux.h comes from it, after the object directory has
	# moved on to the other variant
	"${cross}objcopy" -O binary --only-section=.BTF "$obj/vmlinux" "$out/vmlinux.btf"

	# bpf_testmod.ko against this kernel (its BTF is split against vmlinux's)
	log "$variant: building bpf_testmod.ko"
	make -s -C "$tree" O="$obj" "${karch[@]}" M="$selftests/bpf_testmod" clean >/dev/null
	make -s -C "$tree" O="$obj" "${karch[@]}" M="$selftests/bpf_testmod" -j"$jobs" modules
	cp "$selftests/bpf_testmod/bpf_testmod.ko" "$out/"

	# test_verifier from this tree (its libbpf and uapi headers); VMLINUX_BTF
	# only has to name a file for the Makefile's checks
	log "$variant: building test_verifier"
	# from an empty output directory: what an older key's builds left there
	# (test_maps' skeletons, objects built against another libbpf) is
	# remade by this target and can fail it (seen: bpftool gen skeleton
	# of a stale connect_unix_prog.bpf.o, "failed to find BTF for extern
	# 'memcmp'", after the series changed)
	rm -rf "$top/selftests-$variant"
	mkdir -p "$top/selftests-$variant"
	make -s -C "$selftests" "${karch[@]}" OUTPUT="$top/selftests-$variant" VMLINUX_BTF="$obj/vmlinux" \
		-j"$jobs" "$top/selftests-$variant/test_verifier" >"$top/selftests-$variant.log" 2>&1 ||
		die "test_verifier did not build: see $top/selftests-$variant.log"
	cp "$top/selftests-$variant/test_verifier" "$out/"
	# test_verifier runs all its cases when given a range past its last
	# one: the runner needs the number of cases, sizeof(tests) / sizeof(*tests)
	size=$("${cross}nm" -S "$out/test_verifier" | awk '$4 == "tests" { print $2 }')
	[ -z "$size" ] || size=$((16#$size))
	count=$(pahole -C bpf_test "$out/test_verifier" | sed -n 's|.*/\* size: \([0-9]*\),.*|\1|p')
	[ -n "$size" ] && [ -n "$count" ] && [ "$count" -gt 0 ] && [ $((size % count)) = 0 ] ||
		die "cannot count test_verifier's cases (tests[] size '$size', struct bpf_test size '$count')"
	echo $((size / count)) >"$out/test_verifier.cases"

	touch "$stamp"
	log "$variant done in $(( $(date +%s) - start )) s: $out ($(cat "$out/test_verifier.cases") test_verifier cases)"
}

# --- test_maps of one variant ---------------------------------------------------------
build_maps() {
	local variant=$1 key out stamp start want
	key=$({
		variant_key "$variant"
		sha256sum "$repo/scripts/upstream-suites-maps.sh" | cut -d' ' -f1
		clang-22 --version | head -1
	} | sha256sum | cut -c1-16)
	out=$top/out-$variant
	stamp=$out/maps/stamp-$key
	if [ -e "$stamp" ]; then
		log "$variant test_maps up to date ($key)"
		return 0
	fi
	start=$(date +%s)
	if [ "$variant" = baseline ]; then want=none; else want=$series_hash; fi
	switch_series "$want" "$top/mtimes"
	BPFSK_ARCH=$arch BPFSK_KERNEL_JOBS=$jobs "$repo/scripts/upstream-suites-maps.sh" \
		"$selftests" "$out/vmlinux.btf" "$top/selftests-$variant" "$out/maps" || die "$variant: test_maps"
	touch "$stamp"
	log "$variant test_maps done in $(( $(date +%s) - start )) s"
}

for v in "${variants[@]}"; do
	build_variant "$v"
	build_maps "$v"
done
