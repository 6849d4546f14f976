// SPDX-License-Identifier: GPL-2.0
// A static key's fdinfo names the program the key is bound to
// (static_key_prog_id, kernel-patches/0015): 0 before any program binds it,
// and after a load that failed; the id of the program that had it in its
// fd_array once that program is loaded; 0 again once that program is gone.
// A program that only refers to the key (an ld_imm64 for the kfuncs) does
// not change it, though the key is among its map_ids too. A plain
// INSN_ARRAY map has no such line.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_kfunc.h"

/* the value of static_key_prog_id in @fd's fdinfo, or "(no line)" */
static const char *fdinfo_prog_id(int fd)
{
	static char value[32];
	long id = fdinfo_field(fd, "static_key_prog_id");

	if (id < 0)
		return "(no line)";
	snprintf(value, sizeof(value), "%ld", id);
	return value;
}

static __u32 prog_id(int fd)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (__u64)(unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr)) {
		printf("FAIL: prog info: %s\n", strerror(errno));
		exit(1);
	}
	return info.id;
}

int main(void)
{
	static const struct bpf_insn site_on_mov[] = {
		MOV64_IMM(BPF_REG_0, 1),	/* 0: not a static branch */
		EXIT(),
	};
	static const struct bpf_insn target_insns[] = {
		GOTOL_OR_NOP(2),		/* 0: the site */
		MOV64_IMM(BPF_REG_0, 1),
		EXIT(),
		MOV64_IMM(BPF_REG_0, 2),
		EXIT(),
	};
	static const __u32 offs[] = { 0 };
	int key, plain, flipper, target, bad, i;
	const char *id;

	require_static_keys_kernel();
	key = static_key_create(BPF_F_STATIC_KEY, offs, 1, true);
	plain = insn_array_create(offs, 1, true);
	// CHECK: new key: 0
	printf("new key: %s\n", fdinfo_prog_id(key));
	// CHECK-NEXT: plain insn_array: (no line)
	printf("plain insn_array: %s\n", fdinfo_prog_id(plain));

	bad = prog_load(site_on_mov, ARRAY_SIZE(site_on_mov), &key, 1);
	// CHECK-NEXT: load with the site on a mov: EINVAL
	expect_err("load with the site on a mov", bad, -EINVAL);
	// CHECK-NEXT: after the failed load: 0
	printf("after the failed load: %s\n", fdinfo_prog_id(key));

	flipper = flipper_load(key, kfunc_id("bpf_static_key_set_sync"), BPF_F_SLEEPABLE);
	if (flipper < 0) {
		printf("FAIL: flipper load: %s\n%s", errname(flipper), verifier_log);
		return 1;
	}
	// CHECK-NEXT: a program refers to it: 0
	printf("a program refers to it: %s\n", fdinfo_prog_id(key));

	target = prog_load(target_insns, ARRAY_SIZE(target_insns), &key, 1);
	if (target < 0) {
		printf("FAIL: target load: %s\n%s", errname(target), verifier_log);
		return 1;
	}
	// CHECK-NEXT: bound: prog [[TARGET:[0-9]+]], fdinfo [[TARGET]]
	printf("bound: prog %u, fdinfo %s\n", prog_id(target), fdinfo_prog_id(key));
	close(flipper);
	flipper = kprobe_flipper_load(key, kfunc_id("bpf_static_key_set"), 1);
	// CHECK-NEXT: another program refers to it: prog {{[0-9]+}}, fdinfo [[TARGET]]
	printf("another program refers to it: prog %u, fdinfo %s\n", prog_id(flipper),
	       fdinfo_prog_id(key));

	/* the program is freed after its last fd closes, through RCU and a work */
	close(target);
	for (i = 0; i < 5000 && strcmp(id = fdinfo_prog_id(key), "0"); i++)
		usleep(1000);
	// CHECK-NEXT: its program gone: 0
	printf("its program gone: %s\n", id);
	// CHECK-NEXT: PASSED
	return finish();
}
