// SPDX-License-Identifier: GPL-2.0
// `bpftool prog dump jited` lists, under each jitted function, the static
// branches of that function as the image holds them now: offset in the
// function's image, xlated offset, the instruction read from the image
// (x86: a 2- or 5-byte nop or jmp; arm64: NOP or B) with its bytes, and
// the key with its state. The guest's bpftool has no disassembler, so it
// prints only these lines; `-j` gives them as a "static_branches" array in
// the function's object. The offsets and bytes are checked against the
// image and the key entries read here; a flip turns the nop into a jump.
//
// RUN: %qemu-run %s | FileCheck %s --check-prefixes=CHECK,%jited-prefix
#include "bpftool_test.h"

static unsigned char img[4096];

/* image offset of function @func and where the @key's one site lies */
static void site(int prog_fd, int key, __u32 func, const char *name)
{
	__u32 lens[2] = { 0 }, base = 0, off, n, i;
	struct bpf_insn_array_value v;
	struct bpf_prog_info info;

	memset(&info, 0, sizeof(info));
	info.nr_jited_func_lens = 2;
	info.jited_func_lens = (__u64)(unsigned long)lens;
	if (prog_info_fill(prog_fd, &info) || info.nr_jited_func_lens != 2) {
		printf("FAIL: jited_func_lens: %s, %u functions\n", strerror(errno),
		       info.nr_jited_func_lens);
		exit(1);
	}
	if (insn_array_lookup(key, 0, &v)) {
		printf("FAIL: lookup\n");
		exit(1);
	}
	prog_jited(prog_fd, img, sizeof(img));
	for (i = 0; i < func; i++)
		base += lens[i];
	off = base + v.jitted_off;
#if defined(__aarch64__)
	n = 4;
#else
	n = img[off] == 0x66 || img[off] == 0xeb ? 2 : 5;
#endif
	printf("%s %u xlated %u at 0x%x (", name, map_id_of(key), v.xlated_off, v.jitted_off);
	for (i = 0; i < n; i++)
		printf("%s%02x", i ? " " : "", img[off + i]);
	printf(")\n");
}

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 0),
		CALL_SUB(4),
		GOTOL_OR_NOP(1),		/* 2: main_key */
		EXIT(),
		ADD64_IMM(BPF_REG_0, 10),
		EXIT(),
		MOV64_IMM(BPF_REG_0, 1),	/* 6: the subprogram */
		GOTOL_OR_NOP(1),		/* 7: sub_key */
		EXIT(),
		MOV64_IMM(BPF_REG_0, 2),
		EXIT(),
	};
	int fds[2], p;

	require_static_keys_kernel();
	fds[0] = named_static_key("main_key", BPF_F_STATIC_KEY, (__u32[]){ 2 }, 1);
	fds[1] = named_static_key("sub_key", BPF_F_STATIC_KEY, (__u32[]){ 7 }, 1);
	p = named_prog("dump_j", prog, ARRAY_SIZE(prog), fds, 2);
	// CHECK: prog [[P:[0-9]+]] result 1
	printf("prog %u result %u\n", prog_id_of(p), prog_run(p));
	// CHECK-NEXT: main_key [[MK:[0-9]+]] xlated 2 at 0x[[MPC:[0-9a-f]+]] ([[MB:[0-9a-f ]+]])
	// CHECK-NEXT: sub_key [[SK:[0-9]+]] xlated 7 at 0x[[SPC:[0-9a-f]+]] ([[SB:[0-9a-f ]+]])
	site(p, fds[0], 0, "main_key");
	site(p, fds[1], 1, "sub_key");

	// CHECK: $ bpftool prog dump jited id [[P]]
	// CHECK-NEXT: {{^.+:$}}
	// CHECK-NEXT: {{^}}; static branch at 0x[[MPC]] (xlated 2): nop ([[MB]]), key main_key (map_id [[MK]]): off{{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: {{^.+:$}}
	// CHECK-NEXT: {{^}}; static branch at 0x[[SPC]] (xlated 7): nop ([[SB]]), key sub_key (map_id [[SK]]): off{{$}}
	// CHECK-EMPTY:
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("prog", "dump", "jited", "id", u32str(prog_id_of(p)));

	// CHECK: $ bpftool -j prog dump jited id [[P]]
	// CHECK-NEXT: {{^}}[{"name":"{{[^"]+}}","static_branches":{{\[}}{"pc":"0x[[MPC]]","xlated_off":2,"operation":"nop","size":{{[245]}},"opcodes":"[[MB]]","key":"main_key","map_id":[[MK]],"state":"off"}]},{"name":"{{[^"]+}}","static_branches":{{\[}}{"pc":"0x[[SPC]]","xlated_off":7,"operation":"nop","size":{{[245]}},"opcodes":"[[SB]]","key":"sub_key","map_id":[[SK]],"state":"off"}]}]{{$}}
	// CHECK: exit 0
	bpftool_ok("-j", "prog", "dump", "jited", "id", u32str(prog_id_of(p)));

	static_key_update(fds[1], 1);
	// CHECK: sub_key on: result 2
	printf("sub_key on: result %u\n", prog_run(p));
	// CHECK-NEXT: sub_key [[SK]] xlated 7 at 0x[[SPC]] ([[SB2:[0-9a-f ]+]])
	site(p, fds[1], 1, "sub_key");
	// CHECK: $ bpftool prog dump jited id [[P]]
	// CHECK: {{^}}; static branch at 0x[[MPC]] (xlated 2): nop ([[MB]]), key main_key (map_id [[MK]]): off{{$}}
	// JIT-X86: {{^}}; static branch at 0x[[SPC]] (xlated 7): jmp 0x{{[0-9a-f]+}} ([[SB2]]), key sub_key (map_id [[SK]]): on{{$}}
	// JIT-ARM64: {{^}}; static branch at 0x[[SPC]] (xlated 7): b 0x{{[0-9a-f]+}} ([[SB2]]), key sub_key (map_id [[SK]]): on{{$}}
	// CHECK: exit 0
	bpftool_ok("prog", "dump", "jited", "id", u32str(prog_id_of(p)));
	// CHECK: PASSED
	return finish();
}
