// SPDX-License-Identifier: GPL-2.0
// Static branches in the interpreter (net.core.bpf_jit_enable=0; the test
// kernel has CONFIG_BPF_JIT_ALWAYS_ON off): a static branch that no key
// controls does what its encoding says, as it does in the JIT:
// goto_or_nop / gotol_or_nop jump, nop_or_goto / nop_or_gotol fall through,
// in both the 16-bit (BPF_JMP|BPF_JA) and the 32-bit (BPF_JMP32|BPF_JA)
// form. A program with a keyed static branch is refused with EOPNOTSUPP
// when it is not jitted (a key rewrites the jitted image, and an
// interpreted program has none); the refused load leaves the key free, and
// the same program loads with the JIT back on.
//
// Each program returns 1 if its branch jumped and 2 if it fell through.
// A kernel whose interpreter ignores the JA's src_reg jumps at every
// static branch: nop_or_goto and nop_or_gotol return 1 there.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_blinding.h"

/* 0: r0 = 1; 1: the branch, over 2; 2: r0 = 2; 3: exit */
#define BRANCH_PROG(BRANCH) { MOV64_IMM(BPF_REG_0, 1), BRANCH(1), MOV64_IMM(BPF_REG_0, 2), EXIT() }

static const struct bpf_insn prog_goto_or_nop[] = BRANCH_PROG(GOTO_OR_NOP);
static const struct bpf_insn prog_nop_or_goto[] = BRANCH_PROG(NOP_OR_GOTO);
static const struct bpf_insn prog_gotol_or_nop[] = BRANCH_PROG(GOTOL_OR_NOP);
static const struct bpf_insn prog_nop_or_gotol[] = BRANCH_PROG(NOP_OR_GOTOL);

static const struct {
	const char *name;
	const struct bpf_insn *insns;
	__u32 want;
} progs[] = {
	{ "goto_or_nop", prog_goto_or_nop, 1 },
	{ "nop_or_goto", prog_nop_or_goto, 2 },
	{ "gotol_or_nop", prog_gotol_or_nop, 1 },
	{ "nop_or_gotol", prog_nop_or_gotol, 2 },
};

/* Loads and runs each unkeyed program; @jited: whether it must be jitted. */
static void run_unkeyed(bool jited)
{
	__u32 i, r0, len;
	int fd;

	for (i = 0; i < ARRAY_SIZE(progs); i++) {
		fd = prog_load(progs[i].insns, 4, NULL, 0);
		if (fd < 0) {
			printf("FAIL: load %s: %s\n%s", progs[i].name, errname(fd), verifier_log);
			failures++;
			continue;
		}
		len = jited_len(fd);
		r0 = prog_run(fd);
		printf("  %s: %s, result %u (%s)\n", progs[i].name,
		       len ? "jited" : "interpreted", r0,
		       r0 == 1 ? "jumped" : r0 == 2 ? "fell through" : "?");
		if (r0 != progs[i].want || !len != !jited) {
			printf("FAIL: %s: expected result %u, %s\n", progs[i].name,
			       progs[i].want, jited ? "jited" : "interpreted");
			failures++;
		}
		close(fd);
	}
}

int main(void)
{
	int key, fd, err;

	require_static_keys_kernel();

	// CHECK-LABEL: JIT off
	printf("JIT off\n");
	// CHECK-NEXT: bpf_jit_enable=0: OK
	must_sysctl("bpf_jit_enable", "/proc/sys/net/core/bpf_jit_enable", "0");
	// CHECK-NEXT: goto_or_nop: interpreted, result 1 (jumped)
	// CHECK-NEXT: nop_or_goto: interpreted, result 2 (fell through)
	// CHECK-NEXT: gotol_or_nop: interpreted, result 1 (jumped)
	// CHECK-NEXT: nop_or_gotol: interpreted, result 2 (fell through)
	run_unkeyed(false);

	/* the branch at 1 is a site of a key (off: goto_or_nop falls through) */
	key = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
	fd = prog_load(prog_goto_or_nop, 4, &key, 1);
	// CHECK-NEXT: keyed, JIT off: EOPNOTSUPP
	expect_err("  keyed, JIT off", fd, -EOPNOTSUPP);
	if (fd >= 0)
		close(fd);

	// CHECK-LABEL: JIT on
	printf("JIT on\n");
	// CHECK-NEXT: bpf_jit_enable=1: OK
	must_sysctl("bpf_jit_enable", "/proc/sys/net/core/bpf_jit_enable", "1");
	// CHECK-NEXT: goto_or_nop: jited, result 1 (jumped)
	// CHECK-NEXT: nop_or_goto: jited, result 2 (fell through)
	// CHECK-NEXT: gotol_or_nop: jited, result 1 (jumped)
	// CHECK-NEXT: nop_or_gotol: jited, result 2 (fell through)
	run_unkeyed(true);

	/* the refused load released the key: it binds now */
	fd = prog_load(prog_goto_or_nop, 4, &key, 1);
	// CHECK-NEXT: keyed, JIT on: OK
	expect_err("  keyed, JIT on", fd, 0);
	if (fd >= 0) {
		// CHECK-NEXT: key off: result 2
		printf("  key off: result %u\n", prog_run(fd));
		err = static_key_update(key, 1);
		// CHECK-NEXT: key on: OK, result 1
		printf("  key on: %s, result %u\n", errname(err), prog_run(fd));
		close(fd);
	}
	close(key);

	// CHECK: PASSED
	return finish();
}
