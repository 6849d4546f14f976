// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// One artifact: the output of `bpfkeys resolve` opens with libbpfkeys as the
// raw linked object it came from does, and loads the same code. For every
// source below, both objects are opened and loaded side by side: the same
// keys, states and programs, and after each flip of each key the kernel
// holds the same xlated instructions for every program of both (map ids
// aside) and replaced as many. `bpfkeys lower` of the resolved object writes
// the raw object's lowered code, and the end-to-end flip test passes on the
// resolved object.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/e2e.o %t/progs.o %t/shared.o
// RUN: %bpf_cc %bpf_cflags -c %demo/packet.c -o %t/packet.o
// RUN: %bpf_cc %bpf_cflags -c %demo/classify.c -o %t/classify.o
// RUN: %bpfld -o %t/demo.o %t/packet.o %t/classify.o
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/state_counter.c -o %t/state.o
// RUN: %bpfld -o %t/state_counter.o %t/state.o
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/cgroup_counter.c -o %t/cgroup.o
// RUN: %bpfld -o %t/cgroup_counter.o %t/cgroup.o
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/sk_lookup_counter.c -o %t/sk_lookup.o
// RUN: %bpfld -o %t/sk_lookup_counter.o %t/sk_lookup.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %bpfkeys resolve %t/e2e.o -o %t/e2e.resolved.o
// RUN: %run %t/test %t/e2e.o %t/e2e.resolved.o | FileCheck %s
// RUN: %bpfkeys resolve %t/demo.o -o %t/demo.resolved.o
// RUN: %run %t/test %t/demo.o %t/demo.resolved.o | FileCheck %s
// RUN: %bpfkeys resolve %t/state_counter.o -o %t/state_counter.resolved.o
// RUN: %run %t/test %t/state_counter.o %t/state_counter.resolved.o | FileCheck %s
// RUN: %bpfkeys resolve %t/cgroup_counter.o -o %t/cgroup_counter.resolved.o
// RUN: %run %t/test %t/cgroup_counter.o %t/cgroup_counter.resolved.o | FileCheck %s
// RUN: %bpfkeys resolve %t/sk_lookup_counter.o -o %t/sk_lookup_counter.resolved.o
// RUN: %run %t/test %t/sk_lookup_counter.o %t/sk_lookup_counter.resolved.o | FileCheck %s
// RUN: %bpfkeys lower --set key_a=on %t/e2e.o -o %t/e2e.lowered.o
// RUN: %bpfkeys lower --set key_a=on %t/e2e.resolved.o -o %t/e2e.resolved.lowered.o
// RUN: %llvm-objdump -d -r %t/e2e.lowered.o | tail -n +3 > %t/raw.dis
// RUN: %llvm-objdump -d -r %t/e2e.resolved.lowered.o | tail -n +3 > %t/resolved.dis
// RUN: cmp %t/raw.dis %t/resolved.dis
// RUN: %stock_cc %S/flip-runs-each-program-with-new-states.c %stock_libs -o %t/flips
// RUN: %t/flips %t/e2e.resolved.o | FileCheck %S/flip-runs-each-program-with-new-states.c
//
// CHECK: .o: {{[1-9][0-9]*}} keys, {{[1-9][0-9]*}} programs: the same in both
// CHECK-NEXT: .o: every flip: the same code and replacements in both
#include <libgen.h>

#include "stock_test.h"

#define MAX_INSNS 65536

/* The program's xlated code, map ids in ld_imm64 zeroed (each object has its own maps). */
static size_t xlated(int prog_fd, struct bpf_insn *insns)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = MAX_INSNS * sizeof(*insns);
	info.xlated_prog_insns = (uint64_t)(uintptr_t)insns;
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		fail("program info: %s", strerror(errno));
	for (size_t i = 0; i + 1 < info.xlated_prog_len / sizeof(*insns); i++)
		if (insns[i].code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (insns[i].src_reg)
				insns[i].imm = insns[i + 1].imm = 0;
			i++;
		}
	return info.xlated_prog_len / sizeof(*insns);
}

static void compare_code(struct bpfkeys_object *raw, struct bpfkeys_object *resolved,
			 const char *name, const char *when)
{
	static struct bpf_insn a[MAX_INSNS], b[MAX_INSNS];

	for (size_t p = 0; p < bpfkeys_program_count(raw); p++) {
		const char *prog = bpfkeys_program_name(raw, p);
		size_t na = xlated(bpfkeys_program_fd(raw, prog), a);
		size_t nb = xlated(bpfkeys_program_fd(resolved, prog), b);

		if (na != nb || memcmp(a, b, na * sizeof(*a)))
			fail("%s: %s: program '%s' differs (%zu and %zu instructions)", name, when,
			     prog, na, nb);
	}
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *raw, *resolved;
	const char *name;
	size_t keys;

	if (argc != 3)
		fail("usage: %s RAW.o RESOLVED.o", argv[0]);
	name = basename(argv[1]);
	raw = stock_open_and_load(argv[1]);
	resolved = stock_open_and_load(argv[2]);
	keys = bpfkeys_key_count(raw);
	if (keys != bpfkeys_key_count(resolved) ||
	    bpfkeys_program_count(raw) != bpfkeys_program_count(resolved))
		fail("%s: keys or programs differ", name);
	for (size_t k = 0; k < keys; k++) {
		const char *key = bpfkeys_key_name(raw, k);

		if (strcmp(key, bpfkeys_key_name(resolved, k)) ||
		    bpfkeys_key_state(raw, key) != bpfkeys_key_state(resolved, key))
			fail("%s: key %zu differs", name, k);
		for (size_t p = 0; p < bpfkeys_program_count(raw); p++) {
			const char *prog = bpfkeys_program_name(raw, p);

			if (strcmp(prog, bpfkeys_program_name(resolved, p)) ||
			    bpfkeys_program_uses_key(raw, prog, key) !=
				    bpfkeys_program_uses_key(resolved, prog, key))
				fail("%s: program %zu differs", name, p);
		}
	}
	printf("%s: %zu keys, %zu programs: the same in both\n", name, keys,
	       bpfkeys_program_count(raw));
	compare_code(raw, resolved, name, "initial");
	/* each key to the other state and back: every program in every state reached */
	for (int round = 0; round < 2; round++)
		for (size_t k = 0; k < keys; k++) {
			const char *key = bpfkeys_key_name(raw, k);
			bool on = !bpfkeys_key_state(raw, key);
			int replaced_raw = bpfkeys_set(raw, key, on);
			int replaced_resolved = bpfkeys_set(resolved, key, on);

			if (replaced_raw < 0 || replaced_raw != replaced_resolved)
				fail("%s: %s=%d: replaced %d and %d", name, key, on, replaced_raw,
				     replaced_resolved);
			compare_code(raw, resolved, name, key);
		}
	printf("%s: every flip: the same code and replacements in both\n", name);
	bpfkeys_close(raw);
	bpfkeys_close(resolved);
	return 0;
}
