# The demo's session inside the patched kernel (busybox sh, run by guest.c):
# load the resolved object, run both programs, flip the keys, run again and
# show the JIT image change at the static branch sites. Each run is checked
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
cmd ./bpfkeyctl list $P

if [ -x ./bpftool ]; then
	say "the verifier's view of demo_xdp (bpftool from the patched tree; the xlated code shows each site's current state: nop_or_gotol = a nop now, gotol_or_nop = a jump now)"
	cmd ./bpftool prog dump xlated pinned $P/progs/demo_xdp
fi

say "run with the initial states (debug_key off, fast_key on): both pass the packet"
run demo_xdp XDP_PASS
run demo_xdp_fast XDP_PASS
./bpfkeyctl jited $P/progs/demo_xdp >/tmp/xdp.before
./bpfkeyctl jited $P/progs/demo_xdp_fast >/tmp/fast.before

say "flip debug_key on (both programs; in demo_xdp_fast only the site in classify()): both drop"
cmd ./bpfkeyctl set $P debug_key on
run demo_xdp XDP_DROP
run demo_xdp_fast XDP_DROP
./bpfkeyctl jited $P/progs/demo_xdp >/tmp/xdp.after
./bpfkeyctl jited $P/progs/demo_xdp_fast >/tmp/fast.after

say "JIT image of demo_xdp, before (-) and after (+) the flip: at each site a nop became a jump (66 90: 2-byte nop -> eb XX: jmp rel8; 0f 1f 44 00 00: 5-byte nop -> e9 XX XX XX XX: jmp rel32)"
diff /tmp/xdp.before /tmp/xdp.after || true
say "JIT image of demo_xdp_fast: only the site in classify() changed"
diff /tmp/fast.before /tmp/fast.after || true

if [ -x ./bpftool ]; then
	say "demo_xdp's sites after the flip"
	./bpftool prog dump xlated pinned $P/progs/demo_xdp | grep -e gotol -e 'int '
fi

say "flip fast_key off (demo_xdp_fast bounces the packet), then debug_key off (demo_xdp passes it again)"
cmd ./bpfkeyctl set $P fast_key off
run demo_xdp_fast XDP_TX
cmd ./bpfkeyctl set $P debug_key off
run demo_xdp XDP_PASS
run demo_xdp_fast XDP_TX
cmd ./bpfkeyctl list $P

echo
if [ "$wrong" -ne 0 ]; then
	echo "session: $wrong of $runs runs returned other than expected"
	exit 1
fi
echo "session: all $runs runs returned what they should"
