// SPDX-License-Identifier: GPL-2.0
// Sites in a program attached through a BPF trampoline, flipped while it
// fires: Inputs/tracing_stress.c's fentry program on
// __x64_sys_getpgid (__arm64_sys_getpgid on arm64).
// Two vCPUs: a thread on CPU 1 flips a key of the program N times while
// the main thread, on CPU 0, calls getpgid(0) in a loop, so that every call
// runs the trampoline and the program whose text is being poked. No crash;
// every call is counted once (the program never missed a call and never
// ran garbage); each count is a valid combination of the sites' states;
// both states of the key were seen, i.e. the calls overlapped the flips;
// after the flipper stops, the program follows the state last set.
// First key_a (one site: results 0 or 1), then key_b (two sites, in the
// program and in a BPF-to-BPF function, patched one after the other, so a
// call may see one flipped and not the other: with key_a on, 1, 3, 5 or 7).
// qemu runs single-threaded TCG for the reason given in
// stress-flip-while-running-smp.c.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags %bpf_target_arch -c %e2e_inputs/tracing_stress.c -o %t/stress.o
// RUN: %bpfld -o %t/linked.o %t/stress.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/stress.o
// RUN: echo %stress_flips > %t/files/flips
// RUN: env BPFSK_QEMU_FILES=%t/files BPFSK_QEMU_SMP=2 BPFSK_QEMU_TCG_THREAD=single BPFSK_QEMU_TIMEOUT=%stress_timeout %qemu-run %s | FileCheck %s -DFLIPS=%stress_flips
#define _GNU_SOURCE /* CPU affinity */
#include "e2e_tracing.h"
#include "e2e_smp.h"
#include <sys/sysinfo.h>

static struct e2e_flipper flipper;	/* flips per key: /files/flips */
static struct bpf_program *prog;
static int counts_fd;

static void read_counts(__u64 counts[8])
{
	__u32 r;

	for (r = 0; r < 8; r++) {
		if (bpf_map_lookup_elem(counts_fd, &r, &counts[r])) {
			printf("FAIL: counts[%u]: %s\n", r, strerror(errno));
			exit(1);
		}
	}
}

static void zero_counts(void)
{
	__u64 zero = 0;
	__u32 r;

	for (r = 0; r < 8; r++)
		bpf_map_update_elem(counts_fd, &r, &zero, BPF_ANY);
}

/* getpgid(0) @n times; returns the result that all of them gave, or -1 */
static int calls_all_give(unsigned long n)
{
	__u64 counts[8];
	unsigned long i;
	int r;

	zero_counts();
	for (i = 0; i < n; i++)
		syscall(SYS_getpgid, 0);
	read_counts(counts);
	for (r = 0; r < 8; r++)
		if (counts[r] == n)
			return r;
	return -1;
}

static void stress(const char *key, __u32 valid, int seen_off, int seen_on)
{
	unsigned long calls = 0, counted = 0, bad = 0;
	__u64 counts[8];
	int r;

	zero_counts();
	e2e_flipper_start(&flipper, key);
	while (flipper.flipping) {
		syscall(SYS_getpgid, 0);
		calls++;
	}
	e2e_flipper_join(&flipper);
	read_counts(counts);
	for (r = 0; r < 8; r++) {
		counted += counts[r];
		if (counts[r] && !(valid & (1u << r)))
			bad += counts[r];
	}
	printf("%s: %d flips, %d errors, %lu calls, %lu counted, %lu invalid results\n",
	       key, flipper.flips, flipper.errors, calls, counted, bad);
	for (r = 0; r < 8; r++)
		if (counts[r])
			printf("  %s: result %d seen %llu times\n", key, r,
			       (unsigned long long)counts[r]);
	if (flipper.errors || bad || counted != calls || calls < 100 ||
	    !counts[seen_off] || !counts[seen_on]) {
		printf("FAIL: %s: stress\n", key);
		failures++;
	}
	r = calls_all_give(100);
	printf("%s final state %d: 100 calls give %d\n", key,
	       bpf_program__static_key_state(prog, key), r);
	if (r != seen_on) {
		printf("FAIL: %s: after the flips, expected %d\n", key, seen_on);
		failures++;
	}
}

int main(void)
{
	struct bpf_object *obj = e2e_open("/files/stress.o");
	struct bpf_link *link;
	__u32 *target_tgid;
	int r;

	flipper.flips = e2e_flips(2000);
	// CHECK: online cpus: 2
	printf("online cpus: %d\n", get_nprocs());
	pin_self_or_die(0);
	e2e_load(obj);
	prog = flipper.prog = e2e_prog(obj, "fentry_getpgid");
	counts_fd = bpf_object__find_map_fd_by_name(obj, "counts");
	target_tgid = e2e_global_data(obj, ".bss", sizeof(*target_tgid));
	*target_tgid = getpid();
	// CHECK: fentry_getpgid: attached
	link = e2e_attach(prog);
	// CHECK-NEXT: loaded: 100 calls give 0
	r = calls_all_give(100);
	printf("loaded: 100 calls give %d\n", r);
	if (r != 0) {
		printf("FAIL: expected 0 with both keys off\n");
		failures++;
	}

	// CHECK: key_a: [[FLIPS]] flips, 0 errors, [[CALLS:[0-9]+]] calls, [[CALLS]] counted, 0 invalid results
	// CHECK-NEXT: key_a: result 0 seen {{[1-9][0-9]*}} times
	// CHECK-NEXT: key_a: result 1 seen {{[1-9][0-9]*}} times
	// CHECK-NEXT: key_a final state 1: 100 calls give 1
	stress("key_a", 1u << 0 | 1u << 1, 0, 1);

	/* key_a on: 1 + key_b's two sites (2, 4) */
	// CHECK: key_b: [[FLIPS]] flips, 0 errors, [[CALLS:[0-9]+]] calls, [[CALLS]] counted, 0 invalid results
	// CHECK-NEXT: key_b: result 1 seen {{[1-9][0-9]*}} times
	// CHECK: key_b: result 7 seen {{[1-9][0-9]*}} times
	// CHECK-NEXT: key_b final state 1: 100 calls give 7
	stress("key_b", 1u << 1 | 1u << 3 | 1u << 5 | 1u << 7, 1, 7);

	bpf_link__destroy(link);
	bpf_object__close(obj);
	// CHECK-NOT: FAIL
	// CHECK: PASSED
	return finish();
}
