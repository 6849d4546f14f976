#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The demo's second half, on the host's stock kernel (no qemu, no series), run
# by scripts/demo.sh: the same linked object (bpfld output, not resolved) is
# loaded by bpfkeyctl-stock (libbpfkeys) lowered for the current key states,
# so a fixed branch costs nothing; `bpfkeyctl set`, the command that pokes
# the jumps in the patched kernel, here loads new versions of the programs
# that reach the key against the same maps and swaps them (program
# replacement, docs/abi.md section 7). Each run (BPF_PROG_TEST_RUN through
# the program's pin) is checked against the XDP action packet.c says it
# returns; the session exits 1 if any differs.
# Usage: stock-session.sh BPFKEYCTL BPFKEYCTL_STOCK DEMO_LINKED.o
set -euo pipefail
ctl=$1 stock=$2 obj=$3
here=$(cd "$(dirname "$0")" && pwd)
bpftool=${BPFTOOL:-$(command -v bpftool || true)}
P=/sys/fs/bpf/bpfsk-demo-stock-$$
say() { printf '\n### %s\n' "$*"; }
cmd() { echo "\$ $*"; "$@"; }

# shellcheck source=examples/demo/xdp_actions.sh
. "$here/xdp_actions.sh"	# xdp_name, xdp_value, check_run
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
trap 'rm -rf "$P"' EXIT	# the pins hold the programs: removing them unloads
runs=0 wrong=0
# run PROG XDP_ACTION: run PROG's current version once, compare with XDP_ACTION
run() { check_run "$ctl" "$P" "$@"; }
xlated() {
	if [ -n "$bpftool" ]; then
		cmd "$bpftool" prog dump xlated pinned "$P/progs/$1"
	fi
}

say "load the linked object, lowered for the initial states (debug_key off, fast_key on), pinned under $P"
cmd "$stock" load "$obj" "$P"
cmd "$ctl" list "$P"
run demo_xdp XDP_PASS
run demo_xdp_fast XDP_PASS
say "demo_xdp as the kernel verified it: no trace of the debug branch (not taken: 0 instructions)"
xlated demo_xdp

say "flip debug_key on: the same command as in the patched kernel; here it replaces the programs that reach the key"
cmd "$ctl" set "$P" debug_key=on
run demo_xdp XDP_DROP
run demo_xdp_fast XDP_DROP
say "new program ids; demo_xdp is now its debug path alone (classify() is no longer called, so not loaded)"
cmd "$ctl" list "$P"
xlated demo_xdp

say "flip fast_key off (only demo_xdp_fast reaches it), then debug_key off"
cmd "$ctl" set "$P" fast_key=off
run demo_xdp_fast XDP_TX
cmd "$ctl" set "$P" debug_key=off
run demo_xdp XDP_PASS
run demo_xdp_fast XDP_TX
cmd "$ctl" list "$P"

echo
if [ "$wrong" -ne 0 ]; then
	echo "stock session: $wrong of $runs runs returned other than expected"
	exit 1
fi
echo "stock session: all $runs runs returned what they should"
