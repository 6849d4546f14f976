/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * BPF static keys for BPF programs: branches that cost a nop until a key is
 * flipped from user space. Any clang from 14 on compiles it, at every -mcpu:
 * the static branch is spelled as bytes (below), so no assembler support for
 * gotol_or_nop/nop_or_gotol is needed.
 *
 *	DEFINE_STATIC_KEY_FALSE(debug_key);
 *
 *	if (bpf_static_branch_unlikely(&debug_key))
 *		slow_debug_path();
 *
 * The ABI (instruction encodings, the .static_keys entry) is docs/abi.md.
 */
#ifndef __BPF_STATIC_KEYS_H
#define __BPF_STATIC_KEYS_H

/*
 * A static branch is an "asm goto" whose key is an "i" (constant address)
 * operand: the inlined function's argument becomes that constant only when
 * the optimizer folds it; at -O0 clang reports "invalid operand for inline
 * asm constraint 'i'" instead.
 */
#ifndef __OPTIMIZE__
#error "bpf_static_keys.h: static branches need optimization: compile with -O1 or higher (-O2 recommended)"
#endif

/*
 * Without vmlinux.h, <linux/types.h> includes <asm/types.h>, which Debian and
 * Ubuntu keep under /usr/include/<multiarch>: clang searches it for the host,
 * not for --target=bpf (the patched clang adds it through its bpf.cfg). Say
 * so, and skip the rest of the header, whose errors would only bury this one.
 */
#if !defined(__VMLINUX_H__) && defined(__has_include) && !__has_include(<asm/types.h>)
#error "bpf_static_keys.h: <asm/types.h> (for <linux/types.h>) is not on the include path: add -idirafter /usr/include/$(gcc -print-multiarch) to the compile line, or include vmlinux.h first"
#else

/*
 * The kernel's types come one of two ways, as for <bpf/bpf_helpers.h>:
 *  - CO-RE: #include "vmlinux.h" (bpftool's, guarded by __VMLINUX_H__)
 *    BEFORE this header. It has __u32 and friends (declared below again,
 *    for a stub vmlinux.h that has not), and when made from a
 *    kernel with BPF_MAP_TYPE_INSN_ARRAY (the patched one, or upstream 6.19+)
 *    also that enumerator and struct bpf_insn_array_value, so this header
 *    then includes neither <linux/types.h> (its typedefs, e.g.
 *    __kernel_fd_set, clash with vmlinux.h's) nor the uapi additions (their
 *    #define BPF_MAP_TYPE_INSN_ARRAY and the struct). vmlinux.h after this
 *    header is not supported and cannot be detected here: it fails on those
 *    typedefs.
 *  - uapi: <linux/types.h> / <linux/bpf.h>; this header includes
 *    <linux/types.h> and the uapi additions (which include <linux/bpf.h>)
 *    itself.
 * Keys are BTF-defined maps: compile with -g.
 */
#ifdef __VMLINUX_H__
/*
 * The guard says a vmlinux.h came first, not what it holds: some projects
 * ship a stub vmlinux.h that defines the guard and little else. What this
 * header and <bpf/bpf_helpers.h> need of it are the fixed-size integer
 * types; they are declared here with the types bpftool's vmlinux.h (and
 * <asm-generic/int-ll64.h>) give them. Declaring the same typedef twice is
 * valid C11; in older modes clang warns about it, hence the pragma. A
 * vmlinux.h whose __u64 is another type fails here, at its first
 * conflicting typedef.
 */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wtypedef-redefinition"
typedef signed char __s8;
typedef unsigned char __u8;
typedef short __s16;
typedef unsigned short __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long __s64;
typedef unsigned long long __u64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
#pragma clang diagnostic pop
/* map_extra flags: macros in the kernel too, never enumerators in vmlinux.h */
#ifndef BPF_F_STATIC_KEY
#define BPF_F_STATIC_KEY	(1ULL << 0)
#endif
#ifndef BPF_F_STATIC_KEY_ON
#define BPF_F_STATIC_KEY_ON	(1ULL << 1)
#endif
#else
#include <linux/types.h>
#include "uapi/linux/bpf_static_keys.h"
#endif
#include <bpf/bpf_helpers.h>

/*
 * BPF_MAP_TYPE_INSN_ARRAY (docs/abi.md section 3) under a private name: the
 * public one is an enumerator in a new enough vmlinux.h or <linux/bpf.h>, a
 * macro in the uapi additions, or absent, and this header must not depend on
 * which.
 */
#define __BPF_STATIC_KEY_MAP_TYPE	34
#define __BPF_STATIC_KEY_FLAG		(1ULL << 0)	/* BPF_F_STATIC_KEY */
#define __BPF_STATIC_KEY_FLAG_ON	(1ULL << 1)	/* BPF_F_STATIC_KEY_ON */

/*
 * A key is a BTF-defined map; the loader creates one instance per program.
 * The value is struct bpf_insn_array_value, given by its size only: the
 * header needs no declaration of the struct, which a vmlinux.h may or may not
 * have.
 */
#define __BPF_STATIC_KEY_TYPE(EXTRA)				\
	struct {						\
		__uint(type, __BPF_STATIC_KEY_MAP_TYPE);	\
		__type(key, __u32);				\
		__uint(value_size, 16);				\
		__uint(map_extra, EXTRA);			\
	}
#define __BPF_DEFINE_STATIC_KEY(NAME, EXTRA)			\
	__BPF_STATIC_KEY_TYPE(EXTRA) NAME SEC(".maps")

#define DEFINE_STATIC_KEY_FALSE(NAME)	__BPF_DEFINE_STATIC_KEY(NAME, __BPF_STATIC_KEY_FLAG)
#define DEFINE_STATIC_KEY_TRUE(NAME)					\
	__BPF_DEFINE_STATIC_KEY(NAME, __BPF_STATIC_KEY_FLAG | __BPF_STATIC_KEY_FLAG_ON)
/* A key defined in another object of the same program (resolved by bpfld). */
#define DECLARE_STATIC_KEY_FALSE(NAME)					\
	extern __BPF_STATIC_KEY_TYPE(__BPF_STATIC_KEY_FLAG) NAME SEC(".maps")
#define DECLARE_STATIC_KEY_TRUE(NAME)					\
	extern __BPF_STATIC_KEY_TYPE(__BPF_STATIC_KEY_FLAG | __BPF_STATIC_KEY_FLAG_ON) NAME SEC(".maps")
/* The seeds' form. Like the kernel's static keys, a key is off unless declared TRUE. */
#define DEFINE_STATIC_KEY(NAME)		DEFINE_STATIC_KEY_FALSE(NAME)

/* Bit 0 of the .static_keys entry's key field (the addend of its relocation). */
#define BPF_STATIC_KEY_ENTRY_LIKELY 1

/*
 * Each site is one jump plus a 16-byte .static_keys entry: the jump's byte
 * offset, the target's byte offset (both in the jump's section) and the key,
 * whose relocation addend carries the flags. "- ." is dropped by the BPF
 * object writer; the offsets are section-relative after relocation.
 */
#define __BPF_STATIC_KEY_ENTRY(KEY_OPERAND, FLAGS)		\
	".pushsection .static_keys, \"aw\"\n\t"		\
	".balign 8\n\t"						\
	".long 1b - .\n\t"					\
	".long %l[l_yes] - .\n\t"				\
	".quad %c" #KEY_OPERAND " - . + " #FLAGS "\n\t"	\
	".popsection\n\t"

/*
 * The static branch itself, as bytes (docs/abi.md section 1): code 0x06
 * (BPF_JMP32 | BPF_JA), src_reg SRC (1 gotol_or_nop, 3 nop_or_gotol),
 * dst_reg 0, off 0, and the 32-bit imm counting instructions from the next
 * one. These are the bytes the patched clang emits for the mnemonics, at
 * every -mcpu; its llvm-objdump shows them as the mnemonics. The imm is an
 * absolute expression of two labels of one section: an assembler computes it
 * or fails ("expected relocatable expression" for a label in another section);
 * it never needs a relocation. 32 bits reach any target of a section whose
 * byte offsets fit the 32-bit fields of the .static_keys entry, and
 * `bpfkeys resolve` checks that each site jumps where its entry says.
 * Byte 1 holds src_reg and dst_reg in the target's bit order.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define __BPF_STATIC_BRANCH_REGS(SRC)	"0x0" #SRC
#else
#define __BPF_STATIC_BRANCH_REGS(SRC)	"0x" #SRC "0"
#endif
#define __BPF_STATIC_BRANCH(SRC)					\
	".byte 0x06, " __BPF_STATIC_BRANCH_REGS(SRC) ", 0, 0\n\t"	\
	".long (%l[l_yes] - 1b - 8) / 8\n\t"

/* Jumps to l_yes while the key is on: the unlikely path is out of line. */
static __always_inline int __bpf_static_branch_goto_when_on(void *static_key)
{
	asm goto("1:\n\t"
		 __BPF_STATIC_BRANCH(1)	/* gotol_or_nop %l[l_yes] */
		 __BPF_STATIC_KEY_ENTRY(0, 0)
		 :: "i"(static_key) :: l_yes);
	return 0;
l_yes:
	return 1;
}

/* Jumps to l_yes while the key is off: the likely path falls through. */
static __always_inline int __bpf_static_branch_goto_when_off(void *static_key)
{
	asm goto("1:\n\t"
		 __BPF_STATIC_BRANCH(3)	/* nop_or_gotol %l[l_yes] */
		 __BPF_STATIC_KEY_ENTRY(0, 1)
		 :: "i"(static_key) :: l_yes);
	return 0;
l_yes:
	return 1;
}

#define bpf_static_branch_unlikely(KEY)				\
	__builtin_expect(__bpf_static_branch_goto_when_on(KEY), 0)
#define bpf_static_branch_likely(KEY)				\
	__builtin_expect(!__bpf_static_branch_goto_when_off(KEY), 1)

/*
 * Flipping a key from BPF (the patched kernel's kfuncs, docs/abi.md 6.1):
 *
 *	bpf_static_key_set(&debug_key, 1);	queued, any program and context:
 *						a workqueue applies it soon
 *	bpf_static_key_set_sync(&debug_key, 1);	sleepable programs only: returns
 *						once every site is rewritten
 *
 * Both return 0 or a negative error (-EINVAL for on > 1). `&key` means the
 * key of the object: every instance of it, in every program (key groups,
 * docs/abi.md 6.1). Pass `&key` directly (in r1, possibly through a function
 * of the program): `bpfkeys resolve` follows it there, records the program
 * as a flipper of the key (.bpfkeys version 3) and refuses any other use of
 * a key as a value. `bpfkeys lower` and libbpfkeys refuse such a program:
 * a stock kernel has no static key kfuncs. The series' libbpf loads it on a
 * kernel with static key groups (kernel-patches/0016, 0058).
 */
extern int bpf_static_key_set(void *key__map, __u32 on) __ksym;
extern int bpf_static_key_set_sync(void *key__map, __u32 on) __ksym;

#endif /* <asm/types.h> */
#endif /* __BPF_STATIC_KEYS_H */
