# SPDX-License-Identifier: GPL-2.0
# The demo's session inside the patched kernel (busybox sh, run by guest.c):
# load the resolved object (bpfkeyctl: the patched libbpf), run both
# programs, flip the keys with bpftool (the patched tree's: `bpftool
# static-key set`), run again and show the JIT image change at the static
# branch sites. Each run is checked
# against the XDP action packet.c says it returns for the current key
# states; the session exits 1 if any run differs.
set -e
cd /files
P=/sys/fs/bpf/demo
mkdir -p /tmp
say() { printf '\n### %s\n' "$*"; }
cmd() { echo "\$ $*"; "$@"; }

# shellcheck source=examples/demo/xdp_actions.sh
. /files/xdp_actions.sh	# xdp_name, xdp_value, check_run
runs=0 wrong=0
# run PROG XDP_ACTION: run PROG once and compare its return value with XDP_ACTION
run() { check_run ./bpfkeyctl "$P" "$@"; }

say "load demo.o: one key instance per (key, program), pinned under $P"
cmd ./bpfkeyctl load demo.o $P

say "the key instances bpftool finds in the kernel, and the keys of demo_xdp_fast"
cmd ./bpftool static-key list
cmd ./bpftool prog show pinned $P/progs/demo_xdp_fast

say "the verifier's view of demo_xdp: each static branch as loaded (gotol_or_nop jumps while its key is on, nop_or_gotol while it is off), after a line with its key's state"
cmd ./bpftool prog dump xlated pinned $P/progs/demo_xdp

say "run with the initial states (debug_key off, fast_key on): both pass the packet"
run demo_xdp XDP_PASS
run demo_xdp_fast XDP_PASS
./bpfkeyctl jited $P/progs/demo_xdp >/tmp/xdp.before
./bpfkeyctl jited $P/progs/demo_xdp_fast >/tmp/fast.before

say "flip debug_key on (both programs, one BPF_STATIC_KEY_UPDATE; in demo_xdp_fast only the site in classify()): both drop"
cmd ./bpftool static-key set debug_key on
run demo_xdp XDP_DROP
run demo_xdp_fast XDP_DROP
./bpfkeyctl jited $P/progs/demo_xdp >/tmp/xdp.after
./bpfkeyctl jited $P/progs/demo_xdp_fast >/tmp/fast.after

say "JIT image of demo_xdp, before (-) and after (+) the flip: at each site a nop became a jump (66 90: 2-byte nop -> eb XX: jmp rel8; 0f 1f 44 00 00: 5-byte nop -> e9 XX XX XX XX: jmp rel32)"
diff /tmp/xdp.before /tmp/xdp.after || true
say "JIT image of demo_xdp_fast: only the site in classify() changed"
diff /tmp/fast.before /tmp/fast.after || true

say "demo_xdp's static branches in its JIT image after the flip, as bpftool reads them"
cmd ./bpftool prog dump jited pinned $P/progs/demo_xdp

say "flip fast_key off (demo_xdp_fast bounces the packet), then debug_key off (demo_xdp passes it again)"
cmd ./bpftool static-key set fast_key off
run demo_xdp_fast XDP_TX
cmd ./bpftool static-key set debug_key off
run demo_xdp XDP_PASS
run demo_xdp_fast XDP_TX
cmd ./bpftool static-key list

echo
if [ "$wrong" -ne 0 ]; then
	echo "session: $wrong of $runs runs returned other than expected"
	exit 1
fi
echo "session: all $runs runs returned what they should"
