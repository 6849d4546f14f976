#!/usr/bin/env bash
# The README's test command: installs what is missing, builds every piece
# (patched LLVM, bpfld, bpfkeys with ASan/UBSan, the patched kernel for x86_64
# and, cross-built, arm64), runs the fuzz smoke tests (regression corpus,
# fixed seed and runs), a fixed mutation campaign and the whole lit suite
# (including the qemu kernel tests), then the kernel and e2e suites again on
# the arm64 kernel (and, with BPFSK_STOCK_KERNELS=1, test/stock on Debian's
# unpatched 6.1 and 6.12 kernels under qemu), and ends with one
# "N passed, N failed" line.
#
# Everything is built into build-asan/ (BPFSK_ASAN_BUILD to move it), not
# build/: the C tools there have ASan/UBSan, and a program linked against a
# sanitized libbpfkeys needs the sanitizer runtime, so the build/ that the
# demo and a user's `cmake -B build` make stays a normal build. The patched
# LLVM tools and the kernel come from the same cache into both. Every step
# below (fuzz, mutation, lit and its suites) finds build-asan/ through
# BPFSK_BUILD, exported here.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
build=${BPFSK_ASAN_BUILD:-$repo/build-asan}
export BPFSK_BUILD=$build
jobs=$(nproc)

step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }

step "dependencies"
./scripts/install-deps.sh

step "patched LLVM (clang, llc, llvm-mc, llvm-objdump)"
./scripts/build-llvm.sh

step "C tools with ASan/UBSan (in $build)"
cmake -S . -B "$build" -G Ninja -DBPFSK_SANITIZE=ON >/dev/null
cmake --build "$build" -j "$jobs"

# test/stock on Debian's unpatched 6.1 and 6.12 under qemu: only with
# BPFSK_STOCK_KERNELS=1 until every test of the suite passes there
stock_kernels=${BPFSK_STOCK_KERNELS:-0}
if [ "$stock_kernels" = 1 ]; then
	step "Debian's stock kernels 6.1 and 6.12 (x86_64) for test/stock under qemu"
	./scripts/build-stock-kernel.sh 6.1
	./scripts/build-stock-kernel.sh 6.12
fi

if [ -x scripts/build-kernel.sh ]; then
	step "patched kernel (x86_64)"
	./scripts/build-kernel.sh
	step "patched kernel (arm64, cross-built)"
	BPFSK_ARCH=arm64 ./scripts/install-deps.sh
	BPFSK_ARCH=arm64 ./scripts/build-kernel.sh
fi

for fuzz in test/*/fuzz-smoke.sh; do
	[ -x "$fuzz" ] || continue
	step "fuzz smoke: $fuzz"
	"$fuzz"
done

# structured mutations with the campaign's own PRNG and no coverage feedback:
# the same inputs on every run (libFuzzer's runs above take a fixed seed and
# count, but its coverage feedback can still steer two runs apart)
step "mutation campaign (3000 inputs per tool, seed 1)"
test/mutation/run.sh 3000 1

# lit on everything on x86_64, then the suites that boot the guest
# (test/kernel, test/e2e) on the cross-built arm64 kernel under
# qemu-system-aarch64, then test/stock and one e2e test per arch on objects
# from Debian's clang-22; the counts below add up every run.
log=$build/lit.log
: > "$log"
stock_log=$build/lit-stock-kernels.log
: > "$stock_log"
lit_rc=0
# run_lit [--log FILE] LIT_ARGS...
run_lit() {
	local to=$log
	if [ "$1" = --log ]; then to=$2; shift 2; fi
	set +e
	/usr/lib/llvm-22/bin/lit -v -j "$jobs" "$@" 2>&1 | tee -a "$to"
	local rc=${PIPESTATUS[0]}
	set -e
	[ "$rc" -eq 0 ] || lit_rc=$rc
}
step "lit (x86_64)"
run_lit test
step "lit (arm64: test/kernel test/e2e)"
run_lit --param arch=arm64 test/kernel test/e2e
# BPF objects from Debian's clang-22 instead of the patched clang: the
# host-kernel tests of libbpfkeys, and one patched-kernel test per arch
# (the rest of the header-through-each-compiler matrix is test/compilers)
step "lit (BPF objects from Debian's clang-22: test/stock, one e2e test per arch)"
run_lit --param bpf_cc=clang-22 test/stock test/e2e/loader-flips-per-program-and-per-key.c
run_lit --param bpf_cc=clang-22 --param arch=arm64 test/e2e/loader-flips-per-program-and-per-key.c
# test/stock again on Debian's unpatched 6.1 and 6.12 under qemu (the host
# runs it on its own kernel above): the commands that need the kernel run in
# the guest. A test that a kernel cannot run (REQUIRES: on a feature derived
# from its version, as tcx before 6.6) is reported as unsupported there; the
# counts of these runs go to their own log, checked below.
if [ "$stock_kernels" = 1 ]; then
	step "lit (test/stock on Debian's stock 6.1 and 6.12 under qemu)"
	run_lit --log "$stock_log" --param stock_kernel=6.1 test/stock
	run_lit --log "$stock_log" --param stock_kernel=6.12 test/stock
fi
# (awk, not grep: a grep that matches nothing would end the script under pipefail)
count() { awk -v re="$1" '$0 ~ re { sub(/.*: */, ""); s += $1 } END { print s + 0 }' "${2:-$log}"; }
passed=$(( $(count '^ *Passed *:') + $(count '^ *Passed *:' "$stock_log") ))
failed=$(( $(count '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:') +
	$(count '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:' "$stock_log") ))
# A skipped test is no pass: on the host's kernel this suite has no optional
# features, so any UNSUPPORTED/XFAIL there is a mistake and fails the run.
skipped=$(( $(count '^ *(Unsupported|Skipped|Expectedly Failed|Excluded) *:') +
	$(count '^ *(Skipped|Expectedly Failed|Excluded) *:' "$stock_log") ))
# On the stock kernels, the tests their version cannot run: counted apart,
# named, and no pass.
unsupported=$(count '^ *Unsupported *:' "$stock_log")
# lit prints a failing test's output where it fails, in the middle of a long
# log; repeat the part that says why (error lines and the end of the output)
# last, where a truncated CI log still shows it.
if [ "$failed" -gt 0 ]; then
	echo
	echo "== why they failed"
	awk '
		/^\*+ TEST .* FAILED \*+$/ { name = $0; n = 0; inside = 1; next }
		inside && /^\*+$/ {
			print name
			for (i = 0; i < nerr && i < 10; i++) print "  " err[i]
			print "  [...] last lines of its output:"
			for (i = (n > 25 ? n - 25 : 0); i < n; i++) print "  " tail[i % 25]
			inside = 0; nerr = 0; next
		}
		inside {
			if ($0 ~ /(error|FAIL|panic|BUG|Oops)/ && nerr < 10) err[nerr++] = $0
			tail[n++ % 25] = $0
		}' "$log" "$stock_log"
fi
if [ "$unsupported" -gt 0 ]; then
	echo
	echo "== unsupported on a stock kernel (its version lacks what they test)"
	grep -a '^UNSUPPORTED: ' "$stock_log" || true
fi
echo
echo "${passed} passed, ${failed} failed, ${skipped} skipped, ${unsupported} unsupported on a stock kernel"
[ "$lit_rc" -eq 0 ] && [ "$passed" -gt 0 ] && [ "$skipped" -eq 0 ]
