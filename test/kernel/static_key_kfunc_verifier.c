// SPDX-License-Identifier: GPL-2.0
// The verifier's rules for the static key kfuncs (docs/abi.md "Flipping a
// key from BPF"): the map argument must be a static key (not an array map,
// not a plain INSN_ARRAY), the ld_imm64 must name it through an fd open for
// writing (a read-only fd is EPERM at load, as BPF_STATIC_KEY_UPDATE's
// EPERM; a write-only fd is fine), the sync variant needs a sleepable
// program (a kprobe program or a socket filter cannot call it), a key goes to no helper and to no other __map kfunc, and an
// ld_imm64 cannot take the address of a key's value.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_kfunc.h"

static void refused(const char *what, int got, int want)
{
	expect_err(what, got, want);
	print_last_log_line();
	if (got >= 0)
		close(got);
}

int main(void)
{
	static const __u32 offs[] = { 0 };
	int set_sync, key, target, ro, wo, array, plain, fd;

	require_static_keys_kernel();
	set_sync = kfunc_id("bpf_static_key_set_sync");
	target = target_load(BPF_F_STATIC_KEY, &key);

	array = map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, 0);
	plain = insn_array_create(offs, 1, true);
	ro = map_fd_reopen(key, BPF_F_RDONLY);
	wo = map_fd_reopen(key, BPF_F_WRONLY);
	if (array < 0 || ro < 0 || wo < 0) {
		printf("FAIL: maps: array %s ro %s wo %s\n", errname(array), errname(ro),
		       errname(wo));
		return 1;
	}

	// CHECK: array map: EINVAL
	// CHECK-NEXT: log: arg#0 is not a static key
	refused("array map", flipper_load(array, set_sync, BPF_F_SLEEPABLE), -EINVAL);
	// CHECK-NEXT: plain INSN_ARRAY: EINVAL
	// CHECK-NEXT: log: arg#0 is not a static key
	refused("plain INSN_ARRAY", flipper_load(plain, set_sync, BPF_F_SLEEPABLE), -EINVAL);
	// CHECK-NEXT: read-only fd: EPERM
	// CHECK-NEXT: log: static key map: fd {{[0-9]+}} is not open for writing
	refused("read-only fd", flipper_load(ro, set_sync, BPF_F_SLEEPABLE), -EPERM);
	{
		const struct bpf_insn insns[] = {
			LD_MAP_FD(BPF_REG_1, key),
			MOV64_IMM(BPF_REG_2, 1),
			KFUNC_CALL(set_sync),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		// CHECK-NEXT: sync from a kprobe program: EACCES
		// CHECK-NEXT: log: program must be sleepable to call sleepable kfunc bpf_static_key_set_sync
		refused("sync from a kprobe program",
			prog_load_as(BPF_PROG_TYPE_KPROBE, 0, insns, ARRAY_SIZE(insns), NULL, 0),
			-EACCES);
	}
	{
		const struct bpf_insn insns[] = {
			MOV64_IMM(BPF_REG_2, 1),
			LD_MAP_FD(BPF_REG_1, key),
			KFUNC_CALL(set_sync),
			EXIT(),
		};

		// CHECK-NEXT: sync from a socket filter: EACCES
		// CHECK-NEXT: log: program must be sleepable to call sleepable kfunc bpf_static_key_set_sync
		refused("sync from a socket filter",
			prog_load_as(BPF_PROG_TYPE_SOCKET_FILTER, 0, insns, ARRAY_SIZE(insns),
				     NULL, 0), -EACCES);
	}
	{
		const struct bpf_insn insns[] = {
			MOV64_REG(BPF_REG_2, BPF_REG_10),
			ADD64_IMM(BPF_REG_2, -8),
			ST_W(BPF_REG_10, -8, 0),
			LD_MAP_FD(BPF_REG_1, key),
			HELPER_CALL(BPF_FUNC_map_lookup_elem),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		// CHECK-NEXT: key to bpf_map_lookup_elem: EINVAL
		// CHECK-NEXT: log: cannot pass map_type 34 into func bpf_map_lookup_elem#1
		refused("key to bpf_map_lookup_elem",
			prog_load_as(BPF_PROG_TYPE_SYSCALL, BPF_F_SLEEPABLE, insns,
				     ARRAY_SIZE(insns), NULL, 0), -EINVAL);
	}
	{
		const struct bpf_insn insns[] = {
			INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_VALUE, 0, key),
			INSN(0, 0, 0, 0, 0),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		// CHECK-NEXT: address of a key's value: EINVAL
		// CHECK-NEXT: log: no direct value access support for this map type
		refused("address of a key's value",
			prog_load_as(BPF_PROG_TYPE_SYSCALL, BPF_F_SLEEPABLE, insns,
				     ARRAY_SIZE(insns), NULL, 0), -EINVAL);
	}
	{
		const struct bpf_insn insns[] = {
			LD_MAP_FD(BPF_REG_1, key),
			MOV64_IMM(BPF_REG_2, 0),
			MOV64_IMM(BPF_REG_3, 1),
			MOV64_IMM(BPF_REG_4, 0),
			MOV64_IMM(BPF_REG_5, 0),
			KFUNC_CALL(kfunc_id("bpf_arena_alloc_pages")),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		// CHECK-NEXT: key to another __map kfunc: EINVAL
		// CHECK-NEXT: log: arg#0 is a static key: only static key kfuncs take one
		refused("key to another __map kfunc",
			prog_load_as(BPF_PROG_TYPE_SYSCALL, BPF_F_SLEEPABLE, insns,
				     ARRAY_SIZE(insns), NULL, 0), -EINVAL);
	}

	/* a write-only fd may flip, like BPF_STATIC_KEY_UPDATE */
	fd = flipper_load(wo, set_sync, BPF_F_SLEEPABLE);
	// CHECK-NEXT: write-only fd: OK
	expect_err("write-only fd", fd, 0);
	if (fd >= 0) {
		__u32 ctx[2] = { 1, 0 };

		int ret = syscall_prog_run(fd, ctx);

		// CHECK-NEXT: flip through it: 0, target returns 2
		printf("flip through it: %d, target returns %u\n", ret, prog_run(target));
	}
	// CHECK-NEXT: PASSED
	return finish();
}
