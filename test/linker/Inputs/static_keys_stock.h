/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Test-only stand-in for runtime-headers/bpf_static_keys.h that stock
 * clang-22 can compile: the same .static_keys entries (docs/abi.md section 2)
 * and the same site, a gotol_or_nop, spelled as bytes (06 10, then the jump
 * offset in instructions) since stock clang has no mnemonic for it. Enough to
 * test linking without the patched compiler: the shared reader checks that
 * each entry's instruction is a static branch jumping where the entry says.
 */
#ifndef STATIC_KEYS_STOCK_H
#define STATIC_KEYS_STOCK_H

#include <linux/types.h>
#include <bpf/bpf_helpers.h>

#define BPF_MAP_TYPE_INSN_ARRAY 34
#define BPF_F_STATIC_KEY 1
#define BPF_F_STATIC_KEY_ON 2

#define DEFINE_STATIC_KEY_FALSE(NAME)				\
	struct {						\
		__uint(type, BPF_MAP_TYPE_INSN_ARRAY);	\
		__type(key, __u32);				\
		__uint(value_size, 16);				\
		__uint(map_extra, BPF_F_STATIC_KEY);		\
	} NAME SEC(".maps")

#define STATIC_KEY_ENTRY(FLAGS)					\
	".pushsection .static_keys, \"aw\"\n\t"		\
	".balign 8\n\t"						\
	".long 1b - .\n\t"					\
	".long %l[l_yes] - .\n\t"				\
	".quad %c0 - . + " #FLAGS "\n\t"			\
	".popsection\n\t"

static __always_inline int stock_static_branch(void *static_key)
{
	asm goto("1:\n\t"
		 ".byte 0x06, 0x10, 0, 0\n\t"	/* gotol_or_nop */
		 ".long (%l[l_yes] - 1b - 8) / 8\n\t"
		 STATIC_KEY_ENTRY(0)
		 :: "i"(static_key) :: l_yes);
	return 0;
l_yes:
	return 1;
}
#endif
