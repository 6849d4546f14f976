// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A flip of good_key and bad_key in one call, where the variant of
// breaks_when_on does not verify (bad_key's on-branch reads the packet
// unchecked), changes nothing: the error names the program (and gives the
// verifier's log when asked), no link moves (the same program ids on both
// XDP links), both programs keep their ids and old behaviour, and both keys
// keep their states. A flip of good_key alone then works.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/rejected_when_on.c -o %t/rejected.o
// RUN: %bpfld -o %t/linked.o %t/rejected.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o > %t/out 2> %t/err
// RUN: FileCheck %s < %t/out
// RUN: FileCheck %s --check-prefix=STDERR < %t/err
#include "veth_traffic.h"

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .keep_verifier_log = true);
	struct bpfkeys_setting both[] = { { "good_key", true }, { "bad_key", true } };
	struct bpfkeys_object *obj;
	struct bpfkeys_link *steady_link, *breaks_link;
	uint32_t steady_id, breaks_id;
	int ifindex, err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	ifindex = veth_pair_in_own_netns();
	obj = stock_open(argv[1], &opts);
	if (bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	steady_link = bpfkeys_attach_xdp(obj, "steady", ifindex);
	breaks_link = bpfkeys_attach_xdp(obj, "breaks_when_on", (int)if_nametoindex("veth_tx"));
	if (!steady_link || !breaks_link)
		fail("attach: %s", bpfkeys_errmsg(obj));
	steady_id = prog_id(obj, "steady");
	breaks_id = prog_id(obj, "breaks_when_on");

	err = bpfkeys_flip(obj, both, 2);
	// STDERR: libbpfkeys: {{.*}}linked.o: error: program 'breaks_when_on' does not load: Permission denied (verifier log: bpfkeys_verifier_log())
	// CHECK: flip: Permission denied
	printf("flip: %s\n", strerror(-err));
	// CHECK-NEXT: errmsg: program 'breaks_when_on' does not load
	printf("errmsg: %.40s\n", bpfkeys_errmsg(obj));
	// CHECK-NEXT: verifier log says: invalid access to packet
	printf("verifier log says: %s\n",
	       bpfkeys_verifier_log(obj) &&
			       strstr(bpfkeys_verifier_log(obj), "invalid access to packet")
		       ? "invalid access to packet"
		       : "(not found)");
	// CHECK-NEXT: program ids: unchanged
	printf("program ids: %s\n",
	       prog_id(obj, "steady") == steady_id && prog_id(obj, "breaks_when_on") == breaks_id
		       ? "unchanged"
		       : "CHANGED");
	// CHECK-NEXT: links: unchanged
	printf("links: %s\n",
	       link_prog_id(bpfkeys_link_fd(steady_link)) == steady_id &&
			       link_prog_id(bpfkeys_link_fd(breaks_link)) == breaks_id
		       ? "unchanged"
		       : "CHANGED");
	// CHECK-NEXT: keys: good_key off, bad_key off
	printf("keys: good_key %s, bad_key %s\n", bpfkeys_key_state(obj, "good_key") ? "on" : "off",
	       bpfkeys_key_state(obj, "bad_key") ? "on" : "off");
	// CHECK-NEXT: steady = 2, breaks_when_on = 2
	printf("steady = %u, breaks_when_on = %u\n", run_once(obj, "steady"),
	       run_once(obj, "breaks_when_on"));

	// CHECK-NEXT: good_key alone: replaced 2, steady = 1, breaks_when_on = 3
	err = bpfkeys_set(obj, "good_key", true);
	printf("good_key alone: replaced %d, steady = %u, breaks_when_on = %u\n", err,
	       run_once(obj, "steady"), run_once(obj, "breaks_when_on"));
	// CHECK-NEXT: links follow: yes
	printf("links follow: %s\n",
	       link_prog_id(bpfkeys_link_fd(steady_link)) == prog_id(obj, "steady") &&
			       link_prog_id(bpfkeys_link_fd(breaks_link)) ==
				       prog_id(obj, "breaks_when_on")
		       ? "yes"
		       : "no");
	bpfkeys_close(obj);
	return 0;
}
