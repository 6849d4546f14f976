// SPDX-License-Identifier: GPL-2.0
// jitted_off (kernel-patches/0017 x86-64, 0018 arm64) is where the code of
// an entry's instruction starts in the jitted image of its function: for a
// program with a BPF-to-BPF call, an entry in the called function counts
// from that function's image. The test finds each function's image in
// jited_prog_insns (the images one after the other, jited_func_lens) and
// reads the code at jitted_off: "r0 = 0x1234" is mov eax, 0x1234 on x86-64
// (b8 34 12 00 00) and movz x7, #0x1234 on arm64 (87 46 82 d2); "r0 =
// 0x5678" is b8 78 56 00 00 / 07 cf 8a d2.
//
// RUN: %qemu-run %s | FileCheck %s --check-prefixes=CHECK,%jited-prefix
#include "bpfsk_test.h"

int main(void)
{
	const struct bpf_insn prog[] = {
		/* 0 */ MOV64_IMM(BPF_REG_6, 1),
		/* 1 */ MOV64_IMM(BPF_REG_0, 0x1234),
		/* 2 */ CALL_SUB(2),
		/* 3 */ ADD64_REG(BPF_REG_0, BPF_REG_6),
		/* 4 */ EXIT(),
		/* 5 */ MOV64_IMM(BPF_REG_1, 3),	/* the called function */
		/* 6 */ MOV64_IMM(BPF_REG_0, 0x5678),
		/* 7 */ EXIT(),
	};
	const __u32 offs[] = { 1, 6, 5 };
	unsigned char image[4096];
	__u32 func_lens[4] = { 0 };
	struct bpf_prog_info info;
	struct bpf_insn_array_value v[3];
	int map, prog_fd, i;

	require_insn_array_kernel();

	map = insn_array_create(offs, ARRAY_SIZE(offs), true);
	// CHECK: load: OK
	prog_fd = prog_load_checked(prog, ARRAY_SIZE(prog), &map, 1);
	// CHECK-NEXT: run: 22137
	printf("run: %u\n", prog_run(prog_fd));

	memset(&info, 0, sizeof(info));
	info.jited_prog_len = sizeof(image);
	info.jited_prog_insns = (__u64)(unsigned long)image;
	info.nr_jited_func_lens = ARRAY_SIZE(func_lens);
	info.jited_func_lens = (__u64)(unsigned long)func_lens;
	if (prog_info_fill(prog_fd, &info) || info.jited_prog_len > sizeof(image)) {
		printf("FAIL: prog info: %s\n", strerror(errno));
		return 1;
	}
	// CHECK-NEXT: functions: 2
	printf("functions: %u\n", info.nr_jited_func_lens);
	if (info.nr_jited_func_lens != 2 || func_lens[0] + func_lens[1] != info.jited_prog_len) {
		printf("FAIL: function lengths %u + %u, image %u\n", func_lens[0], func_lens[1],
		       info.jited_prog_len);
		return 1;
	}

	for (i = 0; i < 3; i++)
		insn_array_lookup(map, i, &v[i]);
	// CHECK-NEXT: [0] xlated 1, in function 0
	// CHECK-NEXT: [1] xlated 6, in function 1
	// CHECK-NEXT: [2] xlated 5, in function 1
	for (i = 0; i < 3; i++) {
		int func = v[i].xlated_off >= 5;

		printf("[%d] xlated %u, in function %d\n", i, v[i].xlated_off, func);
		if (v[i].jitted_off >= func_lens[func]) {
			printf("FAIL: [%d] jitted_off %u past its function (%u bytes)\n", i,
			       v[i].jitted_off, func_lens[func]);
			failures++;
			v[i].jitted_off = 0;
		}
	}
	// CHECK-NEXT: [2] before [1] in function 1: yes
	printf("[2] before [1] in function 1: %s\n",
	       v[2].jitted_off < v[1].jitted_off ? "yes" : "no");
	if (v[2].jitted_off >= v[1].jitted_off)
		failures++;

	// JIT-X86: code at [0]: b8 34 12 00 00
	// JIT-X86-NEXT: code at [1]: b8 78 56 00 00
	// JIT-ARM64: code at [0]: 87 46 82 d2
	// JIT-ARM64-NEXT: code at [1]: 07 cf 8a d2
	for (i = 0; i < 2; i++) {
		const unsigned char *c = image + (i ? func_lens[0] : 0) + v[i].jitted_off;
		int j, len = 4;

#ifdef __x86_64__
		len = 5;
#endif
		printf("code at [%d]:", i);
		for (j = 0; j < len; j++)
			printf(" %02x", c[j]);
		printf("\n");
	}
	close(prog_fd);
	close(map);
	// CHECK: PASSED
	return finish();
}
