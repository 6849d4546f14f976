# SPDX-License-Identifier: GPL-2.0
# enum xdp_action (linux/bpf.h): value -> name, and name -> value, and one
# checked run of a pinned program. Sourced by scripts/demo.sh and
# examples/demo/stock-session.sh (bash, host) and examples/demo/session.sh
# (busybox sh, guest).
xdp_name() {
	case $1 in
	0) echo XDP_ABORTED ;; 1) echo XDP_DROP ;; 2) echo XDP_PASS ;;
	3) echo XDP_TX ;; 4) echo XDP_REDIRECT ;; *) echo "not an XDP action" ;;
	esac
}
xdp_value() {
	case $1 in
	XDP_ABORTED) echo 0 ;; XDP_DROP) echo 1 ;; XDP_PASS) echo 2 ;;
	XDP_TX) echo 3 ;; XDP_REDIRECT) echo 4 ;; *) echo "?" ;;
	esac
}

# check_run CTL DIR PROG XDP_ACTION: run DIR/progs/PROG once with CTL (bpfkeyctl
# or bpfkeyctl-stock) and compare its return value with XDP_ACTION; counts the
# run in $runs and a mismatch in $wrong
check_run() {
	want=$(xdp_value "$4")
	echo "\$ $1 run $2/progs/$3"
	if out=$("$1" run "$2/progs/$3"); then
		echo "$out"
		got=${out#retval }
		got="$(xdp_name "$got") ($got)"
	else
		got="an error"
	fi
	runs=$((runs + 1))
	if [ "$got" = "$4 ($want)" ]; then
		echo "$3: expected $4 ($want), got $got: ok"
	else
		echo "$3: expected $4 ($want), got $got: WRONG"
		wrong=$((wrong + 1))
	fi
}
