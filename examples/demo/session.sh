# The demo's session inside the patched kernel (busybox sh, run by guest.c):
# load the resolved object, run both programs, flip the keys, run again and
# show the JIT image change at the static branch sites.
set -e
cd /files
P=/sys/fs/bpf/demo
mkdir -p /tmp
say() { printf '\n### %s\n' "$*"; }
cmd() { echo "\$ $*"; "$@"; }

say "load demo.o: one key instance per (key, program), pinned under $P"
cmd ./bpfkeyctl load demo.o $P
cmd ./bpfkeyctl list $P

if [ -x ./bpftool ]; then
	say "the verifier's view of demo_xdp (bpftool from the patched tree; the xlated code shows each site's current state: nop_or_gotol = a nop now, gotol_or_nop = a jump now)"
	cmd ./bpftool prog dump xlated pinned $P/progs/demo_xdp
fi

say "run with the initial states (debug_key off, fast_key on)"
cmd ./bpfkeyctl run $P/progs/demo_xdp
cmd ./bpfkeyctl run $P/progs/demo_xdp_fast
./bpfkeyctl jited $P/progs/demo_xdp >/tmp/xdp.before
./bpfkeyctl jited $P/progs/demo_xdp_fast >/tmp/fast.before

say "flip debug_key on (both programs; in demo_xdp_fast only the site in classify())"
cmd ./bpfkeyctl set $P debug_key on
cmd ./bpfkeyctl run $P/progs/demo_xdp
cmd ./bpfkeyctl run $P/progs/demo_xdp_fast
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

say "flip fast_key off, then debug_key off"
cmd ./bpfkeyctl set $P fast_key off
cmd ./bpfkeyctl run $P/progs/demo_xdp_fast
cmd ./bpfkeyctl set $P debug_key off
cmd ./bpfkeyctl run $P/progs/demo_xdp
cmd ./bpfkeyctl run $P/progs/demo_xdp_fast
cmd ./bpfkeyctl list $P

