// SPDX-License-Identifier: GPL-2.0
// The verifier explores both edges of a static branch, whatever the state
// of its key: a program that is unsafe on only one of the two edges is
// rejected. Its log prints static branches with their own mnemonics
// (kernel/bpf/disasm.c, shared with bpftool).
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

int main(void)
{
	/* r2 is only initialized when the branch falls through */
	struct bpf_insn unsafe_jump[] = {
		/* 0 */ MOV64_IMM(BPF_REG_0, 0),
		/* 1 */ GOTOL_OR_NOP(1),
		/* 2 */ MOV64_IMM(BPF_REG_2, 1),
		/* 3 */ ADD64_REG(BPF_REG_0, BPF_REG_2),
		/* 4 */ EXIT(),
	};
	/* r2 is only initialized when the branch jumps */
	struct bpf_insn unsafe_fallthrough[] = {
		/* 0 */ MOV64_IMM(BPF_REG_0, 0),
		/* 1 */ NOP_OR_GOTOL(2),
		/* 2 */ ADD64_REG(BPF_REG_0, BPF_REG_2),
		/* 3 */ EXIT(),
		/* 4 */ MOV64_IMM(BPF_REG_2, 1),
		/* 5 */ JA(-4),
	};
	struct bpf_insn mnemonics[] = {
		MOV64_IMM(BPF_REG_0, 0),
		GOTOL_OR_NOP(0),
		NOP_OR_GOTOL(0),
		GOTO_OR_NOP(0),
		NOP_OR_GOTO(0),
		EXIT(),
	};
	int key, fd;

	require_static_keys_kernel();

	/* A key that is on at load: the JIT emits the jump, yet the
	 * fall-through edge is verified too, and vice versa.
	 */
	key = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
	// CHECK: unsafe jump edge: EACCES
	// CHECK-NEXT: R2 !read_ok
	fd = prog_load(unsafe_jump, ARRAY_SIZE(unsafe_jump), &key, 1);
	expect_err("unsafe jump edge", fd, -EACCES);
	printf("%s\n", strstr(verifier_log, "R2 !read_ok") ? "R2 !read_ok" : verifier_log);
	close(key);

	key = static_key_create(BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON, (__u32[]){ 1 }, 1, true);
	// CHECK: unsafe fall-through edge: EACCES
	// CHECK-NEXT: R2 !read_ok
	fd = prog_load(unsafe_fallthrough, ARRAY_SIZE(unsafe_fallthrough), &key, 1);
	expect_err("unsafe fall-through edge", fd, -EACCES);
	printf("%s\n", strstr(verifier_log, "R2 !read_ok") ? "R2 !read_ok" : verifier_log);
	close(key);

	// CHECK: mnemonics: OK
	// CHECK: 1: (06) gotol_or_nop pc+0
	// CHECK: 2: (06) nop_or_gotol pc+0
	// CHECK: 3: (05) goto_or_nop pc+0
	// CHECK: 4: (05) nop_or_goto pc+0
	fd = prog_load_log(mnemonics, ARRAY_SIZE(mnemonics), NULL, 0, 2);
	expect_err("mnemonics", fd, 0);
	printf("%s", verifier_log);
	close(fd);
	// CHECK: PASSED
	return finish();
}
