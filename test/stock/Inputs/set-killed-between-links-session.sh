#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# bpfkeyctl-stock set killed between the two XDP link updates of its flip
# (strace: SIGKILL as it enters the bpf syscall after the first
# BPF_LINK_UPDATE), then list, set again and list, with what each link
# runs. Runs in a network namespace of its own (under unshare -n).
# Usage: set-killed-between-links-session.sh BPFKEYCTL_STOCK LINKED.o
set -u
ctl=$1 obj=$2
ip link add veth_tx type veth peer name veth_rx && ip link set veth_tx up &&
	ip link set veth_rx up || exit 1
pins=/sys/fs/bpf/bpfkeyctl-stock-killed-$$
log=/tmp/bpfkeyctl-stock-killed-$$.log
trap 'rm -rf "$pins" "$log"' EXIT
export ASAN_OPTIONS=detect_leaks=0 # LeakSanitizer cannot run under ptrace

links() {
	for link in "$pins"/links/*; do
		echo "link ${link##*/} runs program $(bpftool -j link show pinned "$link" |
			grep -o '"prog_id":[0-9]*' | cut -d: -f2)"
	done
}

"$ctl" load --xdp flip_one=veth_rx --xdp flip_two=veth_tx "$obj" "$pins" >/dev/null || exit 1
# which bpf syscall of a set is its first BPF_LINK_UPDATE
strace -qq -o "$log" -e trace=bpf "$ctl" set "$pins" key_a=on key_b=on >/dev/null || exit 1
first=$(grep -n '^bpf(BPF_LINK_UPDATE' "$log" | head -1 | cut -d: -f1)
"$ctl" set "$pins" key_a=off key_b=off >/dev/null || exit 1
echo "== set, killed after the first link update"
strace -qq -o /dev/null -e trace=bpf -e inject=bpf:signal=KILL:when=$((first + 1)) \
	"$ctl" set "$pins" key_a=on key_b=on &
{ wait $!; } 2>/dev/null # the shell reports the kill on its stderr
echo "exit $?"
echo "== list"
"$ctl" list "$pins" 2>&1
links
echo "== set both off"
"$ctl" set "$pins" key_a=off key_b=off 2>&1
echo "exit $?"
"$ctl" list "$pins" 2>&1
links
