// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// The demo's object (examples/demo): debug_key is reached by both programs
// (demo_xdp directly and through classify(), demo_xdp_fast through
// classify()), fast_key only by demo_xdp_fast. A flip of fast_key replaces
// demo_xdp_fast alone (demo_xdp keeps its program id); a flip of debug_key
// replaces both. After each flip every program returns what its source says
// for the new states: XDP_PASS 2, XDP_DROP 1, XDP_TX 3.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %demo/packet.c -o %t/packet.o
// RUN: %bpf_cc %bpf_cflags -c %demo/classify.c -o %t/classify.o
// RUN: %bpfld -o %t/demo.o %t/packet.o %t/classify.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/demo.o | FileCheck %s
#include "stock_test.h"

static uint32_t id_xdp, id_fast;

static void show(struct bpfkeys_object *obj, const char *what, int replaced)
{
	uint32_t xdp = prog_id(obj, "demo_xdp"), fast = prog_id(obj, "demo_xdp_fast");

	printf("%s: replaced %d: demo_xdp = %u (%s), demo_xdp_fast = %u (%s)\n", what, replaced,
	       run_once(obj, "demo_xdp"), xdp == id_xdp ? "same program" : "new program",
	       run_once(obj, "demo_xdp_fast"), fast == id_fast ? "same program" : "new program");
	id_xdp = xdp;
	id_fast = fast;
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;

	if (argc != 2)
		fail("usage: %s DEMO.o", argv[0]);
	obj = stock_open_and_load(argv[1]);
	id_xdp = prog_id(obj, "demo_xdp");
	id_fast = prog_id(obj, "demo_xdp_fast");
	// CHECK: initial: replaced 0: demo_xdp = 2 (same program), demo_xdp_fast = 2 (same program)
	show(obj, "initial", 0);
	// CHECK-NEXT: fast_key off: replaced 1: demo_xdp = 2 (same program), demo_xdp_fast = 3 (new program)
	show(obj, "fast_key off", bpfkeys_set(obj, "fast_key", false));
	// CHECK-NEXT: debug_key on: replaced 2: demo_xdp = 1 (new program), demo_xdp_fast = 3 (new program)
	show(obj, "debug_key on", bpfkeys_set(obj, "debug_key", true));
	// CHECK-NEXT: fast_key on: replaced 1: demo_xdp = 1 (same program), demo_xdp_fast = 1 (new program)
	show(obj, "fast_key on", bpfkeys_set(obj, "fast_key", true));
	// CHECK-NEXT: debug_key off: replaced 2: demo_xdp = 2 (new program), demo_xdp_fast = 2 (new program)
	show(obj, "debug_key off", bpfkeys_set(obj, "debug_key", false));
	bpfkeys_close(obj);
	return 0;
}
