# enum xdp_action (linux/bpf.h): value -> name, and name -> value. Sourced by
# scripts/demo.sh (bash, host) and examples/demo/session.sh (busybox sh, guest).
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
