// Constant blinding (net.core.bpf_jit_harden) rewrites the program inside
// the JIT, after the static keys' offsets were fixed: a program with static
// keys is refused while it is on, and loads again once it is off.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"
#include <fcntl.h>

static int set_harden(const char *v)
{
	int fd = open("/proc/sys/net/core/bpf_jit_harden", O_WRONLY);
	int ok = fd >= 0 && write(fd, v, 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -errno;
}

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	int key, fd;

	require_static_keys_kernel();

	// CHECK: bpf_jit_harden=2: OK
	expect_err("bpf_jit_harden=2", set_harden("2"), 0);
	key = insn_set_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
	fd = prog_load(prog, ARRAY_SIZE(prog), &key, 1);
	// CHECK-NEXT: load with a static key: EOPNOTSUPP
	expect_err("load with a static key", fd, -EOPNOTSUPP);
	// CHECK-NEXT: log: static keys are not supported with JIT constant blinding
	print_log_line();
	// CHECK-NEXT: bpf_jit_harden=0: OK
	expect_err("bpf_jit_harden=0", set_harden("0"), 0);
	fd = prog_load(prog, ARRAY_SIZE(prog), &key, 1);
	// CHECK-NEXT: load again: OK
	expect_err("load again", fd, 0);
	// CHECK: PASSED
	return finish();
}
