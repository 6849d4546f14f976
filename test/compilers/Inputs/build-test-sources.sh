#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# build-test-sources.sh OUT CC [CFLAGS...]
#
# Compiles the BPF sources of test/ that use bpf_static_keys.h (e2e, stock,
# bpfkeys and linker inputs, the demo) with CC and CFLAGS, links the
# multi-object ones with bpfld as their tests do, resolves every object with
# bpfkeys and lowers it for the keys' initial states, into OUT/<name>.o,
# OUT/<name>.resolved.o and OUT/<name>.lowered.o (the linker's fuzzing seed,
# which calls a function no input defines, is only linked, into
# OUT/<name>.linked.o). Prints one line per object:
#   <name>: compiled, resolved, lowered
# or, for an object bpfkeys lower refuses by design (it flips a key from
# BPF), "lower refused: <bpfkeys's first line>". Exits 1 at the first
# compiler, linker or resolve failure, naming the object.
set -euo pipefail
out=$1 cc=$2
shift 2
cflags=("$@")
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
bin=${BPFSK_BUILD:-$repo/build}/bin
e2e=$repo/test/e2e/Inputs stock=$repo/test/stock/Inputs bk=$repo/test/bpfkeys/Inputs
mkdir -p "$out"

fail() { echo "build-test-sources: $1: $2" >&2; exit 1; }
compile() { # NAME SRC [EXTRA...]
	local name=$1 src=$2
	shift 2
	"$cc" "${cflags[@]}" -I"$bk" "$@" -c "$src" -o "$out/$name.part.o" 2>"$out/$name.err" ||
		{ cat "$out/$name.err" >&2; fail "$name" "$cc cannot compile $src"; }
}
finish() { # NAME: resolve and lower NAME.o
	local name=$1
	"$bin/bpfkeys" resolve "$out/$name.o" -o "$out/$name.resolved.o" 2>"$out/$name.err" ||
		{ cat "$out/$name.err" >&2; fail "$name" "bpfkeys resolve failed"; }
	if "$bin/bpfkeys" lower "$out/$name.o" -o "$out/$name.lowered.o" 2>"$out/$name.err"; then
		echo "$name: compiled, resolved, lowered"
	elif grep -q "flip" "$out/$name.err"; then
		echo "$name: compiled, resolved, lower refused: $(head -1 "$out/$name.err" | sed "s|$out/||")"
	else
		cat "$out/$name.err" >&2
		fail "$name" "bpfkeys lower failed"
	fi
}
one() { # NAME SRC [EXTRA...]: one source, one object
	compile "$@"
	mv "$out/$1.part.o" "$out/$1.o"
	finish "$1"
}

# two objects linked by bpfld, a key shared across them (test/e2e, test/stock)
compile e2e_progs "$e2e/e2e_progs.c"
compile e2e_shared "$e2e/e2e_shared.c"
"$bin/bpfld" -o "$out/e2e.o" "$out/e2e_progs.part.o" "$out/e2e_shared.part.o" ||
	fail e2e "bpfld failed"
finish e2e
compile demo_packet "$repo/examples/demo/packet.c"
compile demo_classify "$repo/examples/demo/classify.c"
"$bin/bpfld" -o "$out/demo.o" "$out/demo_packet.part.o" "$out/demo_classify.part.o" ||
	fail demo "bpfld failed"
finish demo
one key_group_progs "$e2e/key_group_progs.c" -D__TARGET_ARCH_x86
one seed_static_keys "$e2e/seed_static_keys.c" -D__TARGET_ARCH_x86
one tracing_progs "$e2e/tracing_progs.c" -D__TARGET_ARCH_x86
one tracing_stress "$e2e/tracing_stress.c" -D__TARGET_ARCH_x86
one verifier_reject "$e2e/verifier_reject.c"
one verifier_reject_checked "$e2e/verifier_reject.c" -DCHECKED
for src in cgroup_counter flips_from_bpf no_keys raw_tp_counter rejected_when_on \
	sk_lookup_counter state_counter; do
	one "$src" "$stock/$src.c"
done
one keys_demo "$bk/keys_demo.c"
one kfunc_call "$bk/kfunc_call.c"
compile fuzz_seed "$repo/test/linker/Inputs/fuzz-seed.c"
mv "$out/fuzz_seed.part.o" "$out/fuzz_seed.o"
"$bin/bpfld" -o "$out/fuzz_seed.linked.o" "$out/fuzz_seed.o" || fail fuzz_seed "bpfld failed"
echo "fuzz_seed: compiled, linked"
