# SPDX-License-Identifier: GPL-2.0
# Run by bpfkeyctl-load-run-set-list.c inside the guest (busybox sh): a user's
# session with bpfkeyctl on the objects in /files. Each command is echoed
# with its exit status so that the test can check both.
run() {
	echo "\$ $*"
	"$@" 2>&1
	echo "[exit $?]"
}
cd /files
P=/sys/fs/bpf/e2e
run ./bpfkeyctl load e2e.o $P
run ./bpfkeyctl list $P
run ./bpfkeyctl run $P/progs/prog_one
run ./bpfkeyctl run $P/progs/prog_two --repeat 1000
run ./bpfkeyctl set $P key_a=on
run ./bpfkeyctl run $P/progs/prog_one
run ./bpfkeyctl run $P/progs/prog_two
run ./bpfkeyctl set $P key_b=off
run ./bpfkeyctl list $P
run ./bpfkeyctl run $P/progs/prog_one
run ./bpfkeyctl run $P/progs/prog_two
# several keys in one set: one on and one off (two batches), then both on
run ./bpfkeyctl set $P key_a=off key_b=on
run ./bpfkeyctl run $P/progs/prog_one
run ./bpfkeyctl run $P/progs/prog_two
run ./bpfkeyctl set $P key_a=on key_b=on
run ./bpfkeyctl run $P/progs/prog_one
run ./bpfkeyctl run $P/progs/prog_two
run ./bpfkeyctl list --json $P
# a second object loaded with --set
run ./bpfkeyctl load --set key_a=on --set key_b=off e2e.o /sys/fs/bpf/second
run ./bpfkeyctl run /sys/fs/bpf/second/progs/prog_two
# errors
run ./bpfkeyctl set $P no_such_key=on
run ./bpfkeyctl set $P key_a=off no_such_key=on
run ./bpfkeyctl run $P/progs/prog_one
run ./bpfkeyctl set /sys/fs/bpf/not_loaded key_a=on
run ./bpfkeyctl set /sys/fs/bpf key_a=on
run ./bpfkeyctl set $P key_a=maybe
run ./bpfkeyctl set $P key_a on
run ./bpfkeyctl list --yaml $P
run ./bpfkeyctl run $P/progs/no_such_prog
run ./bpfkeyctl run $P/keys/key_a/prog_one
run ./bpfkeyctl load --set no_such_key=on e2e.o /sys/fs/bpf/third
run ./bpfkeyctl load e2e.o /files/not_bpffs
run ./bpfkeyctl frobnicate
