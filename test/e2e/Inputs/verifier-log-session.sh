# SPDX-License-Identifier: GPL-2.0
# Run by bpfkeyctl-verifier-log.c inside the guest (busybox sh): bpfkeyctl
# loads that fail in the verifier, before it, and a load that asks for the
# log. Each command is echoed with its exit status.
run() {
	echo "\$ $*"
	"$@" 2>&1
	echo "[exit $?]"
}
cd /files
run ./bpfkeyctl load reject.o /sys/fs/bpf/reject
run ./bpfkeyctl load lirc.o /sys/fs/bpf/lirc
run ./bpfkeyctl load --log-level 2 checked.o /sys/fs/bpf/checked
run ./bpfkeyctl load --log-level 0 checked.o /sys/fs/bpf/checked
