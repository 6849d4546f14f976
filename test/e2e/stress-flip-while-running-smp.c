// SPDX-License-Identifier: GPL-2.0
// Two vCPUs: one thread, on CPU 1, flips key_b of prog_one (one site) N
// times while another, on CPU 0, runs prog_one in a loop. No crash, every run returns one of
// the two valid results (2: key_b on, 0: off), and after the flipper stops
// the program behaves as the state last set. Then the same with key_a of
// prog_one, whose instance has two sites (prog_one's own and shared_fn's):
// the sites of one instance are patched in one text_poke batch, not as one
// atomic write, so a run may see one flipped and not the other; only the
// four combinations may occur. Both states must be seen (the runs really
// overlapped the flips); the half-flipped ones are rare and not required.
//
// qemu runs with single-threaded TCG (vCPUs interleaved on one host
// thread): the kernel sees two CPUs, IPIs and int3s hit on the other CPU,
// but qemu 7.2's multi-threaded TCG executes stale translations of
// cross-modified code. Measured with a debug build of text_poke_bp_batch():
// under thread=multi the running vCPU traps on an int3 after the poke has
// completed (all three IPI syncs done, bp_desc released) and while memory
// holds the new jmp byte, i.e. it executed a translation made while the
// int3 was in memory, which x86 forbids after a serializing IPI.
// That costs time: ~8 ms of TCG time per flip (each flip waits for the
// other vCPU three times), so CI runs N = 2,000 flips per key (~40 s, some
// 300 runs per flip); BPFSK_STRESS_FLIPS=100000 lit ... runs the full
// stress (about 30 min for both keys).
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/e2e.o
// RUN: echo %stress_flips > %t/files/flips
// RUN: env BPFSK_QEMU_FILES=%t/files BPFSK_QEMU_SMP=2 BPFSK_QEMU_TCG_THREAD=single BPFSK_QEMU_TIMEOUT=%stress_timeout %qemu-run %s | FileCheck %s -DFLIPS=%stress_flips
#define _GNU_SOURCE /* CPU affinity */
#include "e2e_smp.h"
#include <sys/sysinfo.h>

/* flips per key: /files/flips, an even number (default 2,000 for CI) */
static struct e2e_flipper flipper;
static struct bpf_program *one;

/* counts[r] for r < 8 */
static void stress(const char *key, __u32 valid_mask, __u32 final_want)
{
	unsigned long counts[8] = { 0 }, runs = 0, bad = 0;
	int r;

	/*
	 * The flipper on CPU 1, the runs on CPU 0: the code is modified under
	 * a CPU that runs it, whatever the guest's scheduler would choose (on
	 * one CPU, a run could never see a flip half done).
	 */
	e2e_flipper_start(&flipper, key);
	while (flipper.flipping) {
		r = prog_run(bpf_program__fd(one));
		runs++;
		if (r < 8 && (valid_mask & (1u << r)))
			counts[r]++;
		else
			bad++;
	}
	e2e_flipper_join(&flipper);
	printf("%s: %d flips, %d errors, %lu runs, %lu invalid results\n", key,
	       flipper.flips, flipper.errors, runs, bad);
	for (r = 0; r < 8; r++)
		if (counts[r])
			printf("  %s: result %d seen %lu times\n", key, r, counts[r]);
	if (flipper.errors || bad || runs < 100) {
		printf("FAIL: %s: stress\n", key);
		failures++;
	}
	printf("%s final state: %d\n", key, bpf_program__static_key_state(one, key));
	e2e_expect_run(one, final_want);
}

int main(void)
{
	struct bpf_object *obj = e2e_open("/files/e2e.o");

	flipper.flips = e2e_flips(2000);
	// CHECK: online cpus: 2
	printf("online cpus: %d\n", get_nprocs());
	pin_self_or_die(0);
	e2e_load(obj);
	one = flipper.prog = e2e_prog(obj, "prog_one");

	// CHECK: key_b: [[FLIPS]] flips, 0 errors, {{[0-9]+}} runs, 0 invalid results
	// CHECK-NEXT: key_b: result 0 seen {{[1-9][0-9]*}} times
	// CHECK-NEXT: key_b: result 2 seen {{[1-9][0-9]*}} times
	// CHECK-NEXT: key_b final state: 1
	// CHECK-NEXT: prog_one = 2
	stress("key_b", 1u << 0 | 1u << 2, 2);

	/* key_b off, so that prog_one = key_a's two sites: 0, 1, 4 or 5 */
	e2e_ok("key_b off", bpf_program__set_static_key(one, "key_b", false));
	// CHECK: key_a: [[FLIPS]] flips, 0 errors, {{[0-9]+}} runs, 0 invalid results
	/*
	 * 1 and 4 (one site flipped, not the other) are valid but rare: one
	 * update patches both sites in one text_poke batch (patch 0011), so
	 * they are not required to appear.
	 */
	// CHECK-NEXT: key_a: result 0 seen {{[1-9][0-9]*}} times
	// CHECK: key_a: result 5 seen {{[1-9][0-9]*}} times
	// CHECK-NEXT: key_a final state: 1
	// CHECK-NEXT: prog_one = 5
	stress("key_a", 1u << 0 | 1u << 1 | 1u << 4 | 1u << 5, 5);

	bpf_object__close(obj);
	// CHECK: PASSED
	return finish();
}
