#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The README's first command: sets up a fresh machine and shows BPF static
# keys end to end on examples/demo (packet.c + classify.c: two keys, two XDP
# programs, a shared __noinline function with a site):
#   compile with Debian's clang-22 (any clang from 14 on compiles
#   bpf_static_keys.h), link with bpfld, post-process with bpfkeys (list,
#   resolve), show the gotol_or_nop/nop_or_gotol sites (the patched
#   llvm-objdump names them; stock llvm-objdump misreads them as gotol), boot
#   the patched kernel under qemu, load with the patched libbpf (bpfkeyctl),
#   run, flip a key with the patched tree's bpftool (`bpftool static-key
#   set`), run again and show the JIT image change; then the same
#   linked object on the host's stock kernel, flipped at run time by program
#   replacement (bpfkeyctl-stock, examples/demo/stock-session.sh; on Debian's
#   stock 6.1 or 6.12 under qemu with BPFSK_DEMO_STOCK_KERNEL=6.1); last, lower
#   it with `bpfkeys lower` for fixed states and run that on the host.
# Every run prints the XDP action it should return and the one it returned;
# the demo exits 1 if any differs (examples/demo/packet.c says which is which).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
build=${BPFSK_BUILD:-$repo/build}
export BPFSK_BUILD=$build
bin=$build/bin
out=$build/demo

step() { printf '\n== %s\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

step "set-up: dependencies, patched LLVM, bpfld/bpfkeys, patched kernel + libbpf, bpfkeyctl"
./scripts/install-deps.sh
./scripts/build-llvm.sh
# a normal build (scripts/test.sh builds its sanitized one in build-asan/)
cmake -S . -B "$build" -G Ninja -DBPFSK_SANITIZE=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
./scripts/build-kernel.sh
./tools/bpfkeyctl/build.sh

rm -rf "$out"
mkdir -p "$out/files"
# Debian's clang, as a BPF developer has it. Debian keeps <asm/types.h>
# under the multiarch directory, which clang does not search for
# --target=bpf (the header's #error says so).
cc=/usr/lib/llvm-22/bin/clang
cflags=(--target=bpf -O2 -g -mcpu=v4 -idirafter "/usr/include/$(gcc -print-multiarch)" -I runtime-headers)

step "compile the two files with Debian's clang-22"
show "$cc" "${cflags[@]}" -c examples/demo/packet.c -o "$out/packet.o"
show "$cc" "${cflags[@]}" -c examples/demo/classify.c -o "$out/classify.o"

step "link them with bpfld (debug_key is defined in packet.c, used in both)"
show "$bin/bpfld" -o "$out/demo.linked.o" "$out/packet.o" "$out/classify.o"

step "bpfkeys list: keys, instances (key, program) and sites"
show "$bin/bpfkeys" list "$out/demo.linked.o"

step "bpfkeys resolve: write the .bpfkeys section the loader reads"
show "$bin/bpfkeys" resolve "$out/demo.linked.o" -o "$out/files/demo.o"

step "the static branches in the resolved object"
show "$bin/llvm-objdump" -d --no-show-raw-insn "$out/files/demo.o" |
	grep -E '^[0-9a-f]+ <|gotol_or_nop|nop_or_gotol|call'

step "boot the patched kernel (qemu, TCG) and run the session in examples/demo/session.sh"
cp "$bin/bpfkeyctl" /bin/busybox examples/demo/session.sh examples/demo/xdp_actions.sh "$out/files/"
# the session lists and flips keys with it
[ -x "$build/kernel/bpftool" ] ||
	{ echo "demo: $build/kernel/bpftool missing (scripts/build-kernel.sh builds it)"; exit 1; }
cp "$build/kernel/bpftool" "$out/files/"
guest=ok
BPFSK_QEMU_FILES=$out/files ./scripts/qemu-run.sh "$repo/examples/demo/guest.c" |
	grep -av -e '^=== ' -e '^qemu-run: all' || guest=failed

# BPFSK_DEMO_STOCK_KERNEL=6.1 (or 6.12) runs this half on Debian's unpatched
# kernel of that version under qemu instead (scripts/stock-guest-run.sh)
stock_kernel=${BPFSK_DEMO_STOCK_KERNEL:-}
stock_guest=()
where="the host's stock kernel (no qemu)"
if [ -n "$stock_kernel" ]; then
	./scripts/build-stock-kernel.sh "$stock_kernel"
	stock_guest=(./scripts/stock-guest-run.sh --kernel "$stock_kernel" --rw "$out" --)
	where="Debian's stock $stock_kernel kernel (qemu)"
fi
step "the same linked object on $where, flipped at run time: examples/demo/stock-session.sh"
stock=ok
bpftool=$(command -v bpftool || true)
[ -n "$bpftool" ] || [ ! -x "$build/kernel/bpftool" ] || bpftool=$build/kernel/bpftool
BPFTOOL=$bpftool "${stock_guest[@]}" ./examples/demo/stock-session.sh "$bin/bpfkeyctl" \
	"$bin/bpfkeyctl-stock" "$out/demo.linked.o" || stock=failed

# shellcheck source=examples/demo/xdp_actions.sh
. "$repo/examples/demo/xdp_actions.sh"	# xdp_name, xdp_value
runs=0 wrong=0
# lowered "SETTING" ACTION_DEMO_XDP ACTION_DEMO_XDP_FAST: lower with SETTING,
# run both programs once, compare their return values with the XDP actions
lowered() {
	local setting=$1 results prog want got
	shift
	# shellcheck disable=SC2086
	show "$bin/bpfkeys" lower $setting "$out/demo.linked.o" -o "$out/demo.lowered.o"
	printf '$ %s\n' "$bin/bpf-test-runner $out/demo.lowered.o --run-xdp"
	results=$("$bin/bpf-test-runner" "$out/demo.lowered.o" --run-xdp | grep '^run ') || true
	echo "$results"
	for prog in demo_xdp demo_xdp_fast; do
		want=$(xdp_value "$1")
		got=$(sed -n "s/^run $prog = //p" <<<"$results")
		got=${got:+$(xdp_name "$got") ($got)}
		runs=$((runs + 1))
		if [ "$got" = "$1 ($want)" ]; then
			echo "$prog: expected $1 ($want), got $got: ok"
		else
			echo "$prog: expected $1 ($want), got ${got:-no result}: WRONG"
			wrong=$((wrong + 1))
		fi
		shift
	done
}

step "fixed states at build time instead: bpfkeys lower, stock libbpf"
lowered "" XDP_PASS XDP_PASS			# initial states: debug_key off, fast_key on
lowered "--set debug_key=on" XDP_DROP XDP_DROP
lowered "--set fast_key=off" XDP_PASS XDP_TX
echo
if [ "$guest" != ok ]; then
	echo "demo: FAILED: the session in the patched kernel failed (see above)"
fi
if [ "$stock" != ok ]; then
	echo "demo: FAILED: the run-time flips on the host's stock kernel failed (see above)"
fi
if [ "$wrong" -ne 0 ]; then
	echo "demo: FAILED: $wrong of $runs lowered runs on the host kernel returned other than expected"
fi
[ "$guest" = ok ] && [ "$stock" = ok ] && [ "$wrong" -eq 0 ] || exit 1
echo "demo: done, every run returned what it should (objects in $out)"
