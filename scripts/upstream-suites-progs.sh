#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Runs a subset of upstream's test_progs (tools/testing/selftests/bpf of
# Debian's linux-source-6.12, with the kernel series' own selftests,
# kernel-patches/006x) on the series' "suites" kernel and on the baseline's,
# under qemu TCG, and compares them test by test. Called by
# scripts/upstream-suites.sh --suite test_progs; part of the pre-submission
# check for the kernel series, like test_verifier.
#
#   scripts/upstream-suites-progs.sh [--arch x86_64|arm64] [--build-only] [--help]
#
# 1. scripts/upstream-suites-build.sh: both suites kernels and bpf_testmod.ko
#    (cached, shared with test_verifier).
# 2. A tree of its own, $BPFSK_CACHE/suites-<arch>/progs/src: the tarball
#    with the whole series applied (the 006x selftests included; on a series
#    change the old one is reversed, keeping unchanged files' mtimes). In it, tools/testing/selftests/bpfsk-progs
#    is a copy of selftests/bpf with only the chosen prog_tests/*.c (below)
#    and the progs/*.c they open or include, so that the Makefile builds
#    only those (all of progs/ is 826 objects: too long on 2 cores).
# 3. test_progs built from it: BPF objects with the cached patched clang
#    (it is byte-identical to Debian's clang-22 on programs without static
#    branches; progs/verifier_static_branch.c needs its mnemonics),
#    vmlinux.h from the suites kernel's BTF. The same binary runs on both
#    kernels, so that a difference is the kernel's. arm64: cross-built
#    (ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-: the BPF objects get
#    __TARGET_ARCH_arm64 and the arm64 kernel's vmlinux.h; libelf and zlib
#    are the :arm64 multiarch packages).
# 4. One boot per kernel (one vCPU each, in parallel): an initramfs with
#    scripts/qemu-init.c as /init, scripts/upstream-suites-progs-guest.c as
#    its one test, and in /suites test_progs, its BPF objects, the
#    variant's bpf_testmod.ko and the shared libraries (built and booted by
#    scripts/lib/suites-boot.sh, as for scripts/upstream-suites.sh:
#    qemu-system-x86_64, or qemu-system-aarch64 -M virt for arm64).
# 5. scripts/upstream-suites-progs-report.py: counts per kernel and every
#    test whose result differs; a WARN, BUG or oops in a guest's kernel
#    log fails that run.
#
# Exits 1 if a test (or check) passes on the baseline and not on the
# series, 2 on a usage or build error. Logs, the report and the build's
# times are left in $BPFSK_BUILD/upstream-suites/<arch>/test_progs/.
#
# --build-only           build test_progs, boot nothing
# BPFSK_PROGS_TESTS      prog_tests/*.c names to build (default: the list
#                        below); test_progs runs every test in them
# BPFSK_PROGS_RUN        run only these of the built tests (test_progs -t
#                        A,B; default: all of them)
# BPFSK_PROGS_TIMEOUT    seconds a boot may take (default 3600)
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
arch=${BPFSK_ARCH:-x86_64}
build_only=0
while [ $# -gt 0 ]; do
	case "$1" in
		--arch) [ $# -ge 2 ] || { usage >&2; exit 2; }; arch=$2; shift 2 ;;
		--arch=*) arch=${1#--arch=}; shift ;;
		--build-only) build_only=1; shift ;;
		-h | --help) usage; exit 0 ;;
		*) printf 'upstream-suites-progs: error: unknown argument %s (see --help)\n' "$1" >&2; exit 2 ;;
	esac
done

log() { printf 'upstream-suites-progs: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

# The selection: what the series touches. verifier.c holds every
# verifier_* test (progs/verifier_*.c: the verifier's accept/reject rules,
# extended JA and dead code among them; verifier_static_branch is the
# series'); tailcalls and tailcall poking, subprograms, fentry/fexit
# trampolines and freplace (text poking of BPF images), struct_ops, the
# JIT's exception tables, bpf_loop callbacks; static_keys is the series'.
# 6.12 has no bpf_insn_array or gotox tests (upstream added them in 6.19).
default_tests="verifier verifier_log tailcalls subprogs fentry_fexit fentry_test fexit_test
fexit_bpf2bpf trampoline_count dummy_st_ops test_struct_ops_module jit_probe_mem bpf_loop
global_func_dead_code static_keys"
tests=${BPFSK_PROGS_TESTS:-$default_tests}

repo=$(cd "$(dirname "$0")/.." && pwd)
# cc, triplet, image, qemu, console; copy_libraries, suites_* (the guest's
# tools, initramfs and boot, shared with scripts/upstream-suites.sh)
# shellcheck source=lib/suites-boot.sh
. "$repo/scripts/lib/suites-boot.sh"
suites_arch "$arch"
karch=()
case "$arch" in
	x86_64)
		# no_timer_check: as scripts/qemu-run.sh (under TCG on a loaded host the
		# 8254-to-IO-APIC check can time out and panic the boot)
		console="$console no_timer_check"
		;;
	arm64)
		karch=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
		;;
esac
export BPFSK_ARCH=$arch
build=${BPFSK_BUILD:-$repo/build}
cache=${BPFSK_CACHE:-/var/cache/bpfsk}
boot_timeout=${BPFSK_PROGS_TIMEOUT:-3600}
run_tests=${BPFSK_PROGS_RUN:+ bpfsk.tests=$BPFSK_PROGS_RUN}
top=$cache/suites-$arch
progs_top=$top/progs
tree=$progs_top/src/linux-source-6.12
subset=$tree/tools/testing/selftests/bpfsk-progs
out=$progs_top/out
tarball=/usr/src/linux-source-6.12.tar.xz
results=$build/upstream-suites/$arch/test_progs
llvm_bin=/usr/lib/llvm-22/bin

for tool in "${qemu[0]}" cpio "$cc" "$triplet-readelf" python3 "$llvm_bin/llvm-strip"; do
	command -v "$tool" >/dev/null || die "$tool missing (scripts/install-deps.sh)"
done
mkdir -p "$results"
start=$(date +%s)

# --- kernels -----------------------------------------------------------------------
"$repo/scripts/upstream-suites-build.sh" baseline patched || die "kernel build failed"
"$repo/scripts/build-llvm.sh" >&2 || die "patched clang: scripts/build-llvm.sh failed"
clang=$build/bin/clang
[ -x "$clang" ] || die "no patched clang at $clang"
kernels=$(date +%s)

# --- the tree with the series ------------------------------------------------------
mapfile -t patches < <(find "$repo/kernel-patches" -maxdepth 1 -name '*.patch' ! -name '0000-cover-letter.patch' | LC_ALL=C sort)
series_hash=$(cat "${patches[@]}" | sha256sum | cut -c1-16)
# Extracted once; on a series change the old series (kept in
# $progs_top/applied/) is reversed and the new one applied, and files whose
# content ends up as before get their mtime back, so that make rebuilds only
# what changed (as scripts/upstream-suites-build.sh does).
if [ ! -d "$progs_top/applied" ]; then
	log "extracting $tarball"
	rm -rf "$progs_top/src" "$progs_top/src.series"
	mkdir -p "$progs_top/src"
	tar -C "$progs_top/src" -xf "$tarball"
	mkdir -p "$progs_top/applied"
fi
if [ "$(cat "$progs_top/src.series" 2>/dev/null)" != "$series_hash" ]; then
	log "applying the series ($series_hash)"
	old=("$progs_top"/applied/*.patch)
	[ -e "${old[0]}" ] || old=()
	(cd "$tree" && cat "${old[@]}" "${patches[@]}" | sed -n 's|^+++ b/||p' | sort -u |
		while read -r f; do
			[ -f "$f" ] && printf '%s %s %s\n' "$(sha256sum <"$f" | cut -c1-64)" "$(stat -c %Y "$f")" "$f"
		done) >"$progs_top/mtimes" || true
	rm -f "$progs_top/src.series"
	for p in $(printf '%s\n' "${old[@]}" | LC_ALL=C sort -r); do
		patch -d "$tree" -p1 -R -s -f --no-backup-if-mismatch <"$p" >/dev/null ||
			die "cannot reverse $(basename "$p"): remove $progs_top/applied to extract again"
	done
	rm -f "$progs_top"/applied/*.patch
	for p in "${patches[@]}"; do
		patch -d "$tree" -p1 -s -f --no-backup-if-mismatch <"$p" ||
			die "$(basename "$p") does not apply"
		cp "$p" "$progs_top/applied/"
	done
	(cd "$tree" && while read -r sum mtime f; do
		if [ -f "$f" ] && [ "$(sha256sum <"$f" | cut -c1-64)" = "$sum" ]; then
			touch -d "@$mtime" "$f"
		fi
	done) <"$progs_top/mtimes"
	echo "$series_hash" >"$progs_top/src.series"
fi

# --- the subset --------------------------------------------------------------------
# progs/X.c for each "X.skel.h", "X.lskel.h", "X.bpf.o" a test names, the
# parts of a linked skeleton (the Makefile's X.skel.h-deps), the progs/*.c
# those #include, and btf_data.c (resolve_btfids reads its BTF at link time);
selftests=$tree/tools/testing/selftests/bpf
rm -rf "$subset.new"
mkdir -p "$subset.new/prog_tests" "$subset.new/progs"
cp -a "$selftests/." "$subset.new/"
rm -f "$subset.new"/prog_tests/*.c "$subset.new"/progs/*.c
# every light and linked skeleton the Makefile lists: each test object
# depends on all of them
names=" btf_data $(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$selftests/Makefile" |
	sed -n 's/^\(LSKELS\|LSKELS_EXTRA\) := //p; s/^[a-z0-9_]*\.skel\.h-deps := //p' |
	tr ' \t' '\n\n' | sed -n 's/\.\(c\|bpf\.o\)$//p' | sort -u | tr '\n' ' ') "
for t in $tests; do
	[ -f "$selftests/prog_tests/$t.c" ] || die "no prog_tests/$t.c in the tree"
	cp -p "$selftests/prog_tests/$t.c" "$subset.new/prog_tests/"
	for n in $(grep -ohE '[A-Za-z0-9_]+\.(skel\.h|lskel\.h|bpf\.o)' "$selftests/prog_tests/$t.c" |
		sed -E 's/\.(skel\.h|lskel\.h|bpf\.o)$//' | sort -u); do
		deps=$(sed -n "s/^$n\.skel\.h-deps := //p" "$selftests/Makefile")
		for d in $n ${deps//.bpf.o/}; do names="$names$d "; done
	done
done
todo=($names)
seen=" "
while [ ${#todo[@]} -gt 0 ]; do
	n=${todo[0]}
	todo=("${todo[@]:1}")
	case "$seen" in *" $n "*) continue ;; esac
	seen="$seen$n "
	[ -f "$selftests/progs/$n.c" ] || continue  # e.g. a name built elsewhere
	cp -p "$selftests/progs/$n.c" "$subset.new/progs/"
	for inc in $(sed -n 's/^#include "\([A-Za-z0-9_]*\)\.c"$/\1/p' "$selftests/progs/$n.c"); do
		todo+=("$inc")
	done
done
# The suites config has no CONFIG_NET_NS: /proc/self/ns/net does not exist,
# and 6.12's test_progs stops at start-up when it cannot open it to restore
# the network namespace after each test. In this copy only, a missing
# namespace is not restored (both kernels run the same binary; a test that
# needs network namespaces fails on both).
patch -d "$subset.new" -p1 -s -f --no-backup-if-mismatch <<'NETNS' || die "test_progs.c: the netns change does not apply"
--- a/test_progs.c
+++ b/test_progs.c
@@ -422,6 +422,9 @@
 static void save_netns(void)
 {
 	env.saved_netns_fd = open("/proc/self/ns/net", O_RDONLY);
+	/* no CONFIG_NET_NS (scripts/upstream-suites-progs.sh) */
+	if (env.saved_netns_fd == -1 && errno == ENOENT)
+		return;
 	if (env.saved_netns_fd == -1) {
 		perror("open(/proc/self/ns/net)");
 		exit(EXIT_ERR_SETUP_INFRA);
@@ -430,6 +433,8 @@
 
 static void restore_netns(void)
 {
+	if (env.saved_netns_fd == -1)
+		return;
 	if (setns(env.saved_netns_fd, CLONE_NEWNET) == -1) {
 		stdio_restore();
 		perror("setns(CLONE_NEWNS)");
NETNS
# (mtimes kept: make rebuilds only what changed; tests.h is make's own)
if [ -d "$subset" ] && diff -r -q -x tests.h "$subset" "$subset.new" >/dev/null; then
	rm -rf "$subset.new"
else
	rm -rf "$subset"
	mv "$subset.new" "$subset"
fi
log "subset: $(ls "$subset/prog_tests"/*.c | wc -l) prog_tests files, $(ls "$subset/progs"/*.c | wc -l) progs"

# --- test_progs --------------------------------------------------------------------
# vmlinux.h from the baseline suites kernel's BTF (upstream-suites-build.sh
# keeps each variant's .BTF section in out-<variant>/vmlinux.btf): the types
# both kernels have, the series only adding its own, so that no program of
# the one binary needs a type the baseline lacks. Copied only when it
# changed: vmlinux.h, and with it every BPF object, is rebuilt after a
# change of the kernel's types (a config change), and never kept from an
# older kernel.
cmp -s "$top/out-baseline/vmlinux.btf" "$progs_top/vmlinux.btf" ||
	cp "$top/out-baseline/vmlinux.btf" "$progs_top/vmlinux.btf" ||
	die "cannot copy the BTF of the baseline suites kernel ($top/out-baseline/vmlinux.btf)"
# Files the test_progs target depends on that the chosen tests do not use
# (or, for the modules, that scripts/upstream-suites-build.sh builds
# against each kernel): make is told they are up to date. A cross build
# also makes test_progs depend on a bpftool for the target (tools/sbin/; the
# skeletons are generated by the host's): none of the chosen tests runs it.
assume_old=()
for f in urandom_read bpf_testmod.ko bpf_test_no_cfi.ko bpf_test_modorder_x.ko \
	bpf_test_modorder_y.ko liburandom_read.so xdp_synproxy sign-file uprobe_multi; do
	assume_old+=(-o "$out/$f")
done
[ ${#karch[@]} = 0 ] || assume_old+=(-o "$out/tools/sbin/bpftool")
mkdir -p "$out"
# 6.12's Makefile maps the bare "X.skel.h" names that gcc writes into the
# tests' .d files to $(OUTPUT)/X.skel.h, but not "X.lskel.h": a second make
# stops at "No rule to make target 'fentry_test.lskel.h'". The test objects
# list every skeleton as a prerequisite anyway, so the .d files can go.
rm -f "$out"/*.test.d
t0=$(date +%s)
log "building test_progs with $clang (-j${BPFSK_KERNEL_JOBS:-2}; log: $results/build.log)"
if ! make -C "$subset" "${karch[@]}" OUTPUT="$out" VMLINUX_BTF="$progs_top/vmlinux.btf" CLANG="$clang" \
	LLC="$llvm_bin/llc" LLVM_STRIP="$llvm_bin/llvm-strip" LLVM_OBJCOPY="$llvm_bin/llvm-objcopy" \
	"${assume_old[@]}" -o test_progs-extras -j"${BPFSK_KERNEL_JOBS:-2}" "$out/test_progs" \
	>"$results/build.log" 2>&1; then
	tail -30 "$results/build.log" >&2
	die "test_progs did not build: see $results/build.log"
fi
echo "test_progs build: $(( $(date +%s) - t0 )) s ($(ls "$out"/*.bpf.o | wc -l) BPF objects)" >"$results/times"
log "$(cat "$results/times")"
[ "$build_only" = 0 ] || exit 0

# --- initramfs, one per kernel -------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/upstream-suites-progs.XXXXXX")
trap 'rm -rf "$work"' EXIT
suites_guest_tools "$work" "$repo/scripts/upstream-suites-progs-guest.c"

for variant in baseline patched; do
	stage=$work/root-$variant
	mkdir -p "$stage/tests" "$stage/suites"
	cp "$work/init" "$stage/init"
	cp "$work/guest" "$stage/tests/upstream-suites-progs"
	cp "$out/test_progs" "$out"/*.bpf.o "$stage/suites/"
	cp "$top/out-$variant/bpf_testmod.ko" "$stage/suites/"
	copy_libraries "$out/test_progs" "$stage"
	suites_initramfs "$stage" "$work/initramfs-$variant.cpio"
done

# --- boots (see scripts/upstream-suites.sh for quiet and clocksource=hpet) ------------
boot() {
	local variant=$1 log=$results/$1-test_progs.log t0 rc
	t0=$(date +%s)
	set +e
	suites_qemu "$top/out-$variant/$image" "$work/initramfs-$variant.cpio" 2048 \
		"panic=-1 oops=panic quiet$run_tests" | tee "$log" |
		while IFS= read -r line; do  # when each test ended, for the report's times
			case "$line" in "=== SUITE test_progs" | "#"[0-9]*) echo "$(date +%s) $line" ;; esac
		done >"$log.times"
	rc=${PIPESTATUS[0]}
	set -e
	[ "$rc" != 124 ] && [ "$rc" != 137 ] || echo "=== HOST boot timed out after $boot_timeout s" >>"$log"
	echo "$variant test_progs: $(( $(date +%s) - t0 )) s (qemu rc=$rc)" >>"$results/times"
	log "$variant test_progs done in $(( $(date +%s) - t0 )) s"
}
booted=$(date +%s)
boot baseline &
pid=$!
boot patched
wait "$pid"

set +e
python3 "$repo/scripts/upstream-suites-progs-report.py" "$results" | tee "$results/report"
rc=${PIPESTATUS[0]}
set -e
end=$(date +%s)
printf 'upstream-suites-progs: kernels %d s, test_progs build %d s, runs %d s, total %d s; logs in %s\n' \
	$((kernels - start)) $((booted - kernels)) $((end - booted)) $((end - start)) "$results" |
	tee -a "$results/report"
exit "$rc"
