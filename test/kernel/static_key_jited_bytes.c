// SPDX-License-Identifier: GPL-2.0
// BPF_STATIC_KEY_UPDATE rewrites the jitted code in place: the jitted image
// (BPF_OBJ_GET_INFO_BY_FD, jited_prog_insns, as `bpftool prog dump jited`
// reads it) differs only at the sites, where a 2-byte nop (66 90) becomes a
// jmp rel8 (eb xx) and a 5-byte nop (0f 1f 44 00 00) a jmp rel32 (e9 ...),
// and back. The xlated program shows each site as loaded (src_reg 1,
// gotol_or_nop) whatever the state, which the key's map_extra reports.
// On arm64 every site is one 4-byte instruction: NOP (d503201f, bytes
// 1f 20 03 d5) <-> B (0x14000000 | imm26, the displacement in instructions).
//
// RUN: %qemu-run %s | FileCheck %s --check-prefixes=CHECK,%jited-prefix
#include "bpfsk_test.h"

#define FAR 40	/* x86: 40 x "add rax, 1" (4 bytes each): too far for a rel8 jump */

static unsigned char img[3][4096];
static __u32 len[3];

int main(void)
{
	struct bpf_insn prog[64];
	int n = 0, key, prog_fd, k;

	require_static_keys_kernel();

	/* r0 = 1; gotol_or_nop near; gotol_or_nop far; r0 += 1 (x FAR); exit;
	 * near: r0 = 2 ... far end
	 */
	prog[n++] = MOV64_IMM(BPF_REG_0, 1);
	prog[n++] = GOTOL_OR_NOP(1);		/* [1] near: over one insn */
	prog[n++] = INSN(BPF_JMP | BPF_JA, 0, 0, 1, 0); /* [2] skip the near target */
	prog[n++] = ADD64_IMM(BPF_REG_0, 100);	/* [3] near target */
	prog[n++] = GOTOL_OR_NOP(FAR);		/* [4] far */
	for (k = 0; k < FAR; k++)
		prog[n++] = ADD64_IMM(BPF_REG_0, 1);
	prog[n++] = EXIT();

	key = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1, 4 }, 2, true);
	prog_fd = prog_load_or_die("load", prog, n, &key, 1);

	// CHECK: key off: result 41
	printf("key off: result %u\n", prog_run(prog_fd));
	// CHECK-NEXT: xlated off: [1] src_reg 1 [4] src_reg 1, state off
	print_xlated_sites(prog_fd, key, "off");
	len[0] = prog_jited(prog_fd, img[0], sizeof(img[0]));

	static_key_update(key, 1);
	// CHECK-NEXT: key on: result 101
	printf("key on: result %u\n", prog_run(prog_fd));
	// CHECK-NEXT: xlated on: [1] src_reg 1 [4] src_reg 1, state on
	print_xlated_sites(prog_fd, key, "on");
	len[1] = prog_jited(prog_fd, img[1], sizeof(img[1]));

	static_key_update(key, 0);
	// CHECK-NEXT: key off again: result 41
	printf("key off again: result %u\n", prog_run(prog_fd));
	len[2] = prog_jited(prog_fd, img[2], sizeof(img[2]));

	// CHECK-NEXT: jited off -> on:
	// JIT-X86-NEXT:   site 1 (2 bytes): 66 90 -> eb {{[0-9a-f][0-9a-f]}}
	// JIT-X86-NEXT:   site 2 (5 bytes): 0f 1f 44 00 00 -> e9 {{[0-9a-f][0-9a-f]}} 00 00 00
	// arm64: B +2 (over the plain jump [2] to [3]) and B +41 (over the FAR
	// adds, one instruction each, to the exit: 41 = 0x29)
	// JIT-ARM64-NEXT:   site 1 (4 bytes): 1f 20 03 d5 -> 02 00 00 14
	// JIT-ARM64-NEXT:   site 2 (4 bytes): 1f 20 03 d5 -> 29 00 00 14
	// CHECK-NEXT:   2 site(s) changed
	printf("jited off -> on:\n");
	print_jited_diff(img[0], img[1], len[0]);
	// CHECK-NEXT: jited on -> off:
	// JIT-X86-NEXT:   site 1 (2 bytes): eb {{[0-9a-f][0-9a-f]}} -> 66 90
	// JIT-X86-NEXT:   site 2 (5 bytes): e9 {{[0-9a-f][0-9a-f]}} 00 00 00 -> 0f 1f 44 00 00
	// JIT-ARM64-NEXT:   site 1 (4 bytes): 02 00 00 14 -> 1f 20 03 d5
	// JIT-ARM64-NEXT:   site 2 (4 bytes): 29 00 00 14 -> 1f 20 03 d5
	// CHECK-NEXT:   2 site(s) changed
	printf("jited on -> off:\n");
	print_jited_diff(img[1], img[2], len[1]);
	// CHECK-NEXT: jited off == jited off again: yes
	printf("jited off == jited off again: %s\n",
	       len[0] == len[2] && !memcmp(img[0], img[2], len[0]) ? "yes" : "no");
	// CHECK: PASSED
	return finish();
}
