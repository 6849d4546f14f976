/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Kernel ABI for BPF static keys (ABI 2, docs/abi.md), as added to
 * include/uapi/linux/bpf.h by kernel-patches/. Kept standalone so that BPF
 * programs and user-space tools can be built against a stock <linux/bpf.h>;
 * every value here must equal the patched kernel's (test/kernel compiles it
 * after the patched <linux/bpf.h>: a macro that differs is an error).
 *
 * <linux/bpf.h> is included first, whichever order the includer uses: a
 * patched or newer one declares BPF_MAP_TYPE_INSN_ARRAY as an enumerator,
 * which the macro below would break if it came first.
 */
#ifndef _UAPI_LINUX_BPF_STATIC_KEYS_H
#define _UAPI_LINUX_BPF_STATIC_KEYS_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/version.h>

/*
 * A static key is a BPF_MAP_TYPE_INSN_ARRAY map (upstream Linux 6.19's, 34)
 * with BPF_F_STATIC_KEY in map_extra. Older headers (Debian 12's are 6.1)
 * have neither the enumerator nor the value struct. A preprocessor cannot see
 * an enumerator or a struct, so the struct is declared unless <linux/bpf.h>
 * is known to have it: it is upstream 6.19 or later (LINUX_VERSION_CODE of
 * the same headers), or it is the patched kernel's, whose static keys
 * (BPF_F_STATIC_KEY, a macro there) come after its INSN_ARRAY backport.
 */
#ifndef BPF_MAP_TYPE_INSN_ARRAY
#define BPF_MAP_TYPE_INSN_ARRAY 34
#endif

#if !defined(BPF_F_STATIC_KEY) && \
	(!defined(LINUX_VERSION_CODE) || LINUX_VERSION_CODE < KERNEL_VERSION(6, 19, 0))
/*
 * The value of a BPF_MAP_TYPE_INSN_ARRAY entry (16 bytes). User space writes
 * orig_off, the site's instruction offset in the program as loaded, and
 * leaves the rest 0. After the load xlated_off is its offset in the xlated
 * program (0xffffffff: removed, or a dead site) and jitted_off the offset of
 * its code in the image of its function.
 */
struct bpf_insn_array_value {
	__u32 orig_off;
	__u32 xlated_off;
	__u32 jitted_off;
	__u32 :32;
};
#endif

/*
 * The bpf(2) command that sets static keys. Provisional, and outside enum
 * bpf_cmd on purpose (docs/abi.md 4.1): upstream numbers its commands densely
 * from 0, and a BPF token delegates them in a 64-bit mask (__MAX_BPF_CMD <
 * 64), so no upstream command takes this value. Spelled as the patched
 * <linux/bpf.h> spells it, so that both definitions may meet.
 */
#define BPF_STATIC_KEY_UPDATE	1024

/*
 * map_extra flags of a BPF_MAP_TYPE_INSN_ARRAY map (upstream requires
 * map_extra 0 there, so an upstream kernel refuses a key with EINVAL instead
 * of misreading it). Provisional until upstream assigns a static-key flavour.
 * BPF_F_STATIC_KEY: the map is a static key; every entry must point at a
 *   static branch (JA with BPF_STATIC_BRANCH_JA in src_reg), 1..4096 entries.
 * BPF_F_STATIC_KEY_ON: at creation, the key is on right after the program is
 *   loaded (DEFINE_STATIC_KEY_TRUE); BPF_OBJ_GET_INFO_BY_FD reports it set
 *   iff the key is on now.
 */
#define BPF_F_STATIC_KEY	(1ULL << 0)
#define BPF_F_STATIC_KEY_ON	(1ULL << 1)

/*
 * Key groups (docs/abi.md 6.1): every member of a group has the group's state
 * and setting any member sets them all.
 * BPF_F_STATIC_KEY_GROUP: the new key starts a group, in the state it is
 *   created with; BPF_OBJ_GET_INFO_BY_FD reports it on every member.
 * BPF_F_STATIC_KEY_JOIN: the new key joins the group of the key whose fd (open
 *   for writing) is in inner_map_fd and takes the group's state
 *   (BPF_F_STATIC_KEY_ON must be clear). Never reported.
 * Bit 2 is unused.
 */
#define BPF_F_STATIC_KEY_GROUP	(1ULL << 3)
#define BPF_F_STATIC_KEY_JOIN	(1ULL << 4)

/*
 * src_reg flags of BPF_JMP|BPF_JA (goto_or_nop / nop_or_goto, 16-bit off) and
 * BPF_JMP32|BPF_JA (gotol_or_nop / nop_or_gotol, 32-bit imm).
 * JA alone     = "goto_or_nop": jumps while its key is on, falls through while off.
 * JA | NOP     = "nop_or_goto": falls through while its key is on, jumps while off.
 * The NOP bit is the site's polarity, always: the kernel never rewrites it.
 */
#define BPF_STATIC_BRANCH_JA	(1 << 0)
#define BPF_STATIC_BRANCH_NOP	(1 << 1)
#define BPF_STATIC_BRANCH_MASK	(BPF_STATIC_BRANCH_JA | BPF_STATIC_BRANCH_NOP)

/* union bpf_attr member for BPF_STATIC_KEY_UPDATE ("static_key"). */
struct bpf_static_key_update_attr {
	__u32 map_fd;	/* a static key bound to a program; 0 with map_fd_cnt */
	__u32 on;	/* 0 or 1; other bits are -EINVAL */
	__aligned_u64 map_fds;	/* map_fd_cnt __u32 fds, all set in one batch (docs/abi.md 6) */
	__u32 map_fd_cnt;	/* 0: the single map_fd form; 1..4096, <= 65536 sites in all */
	__u32 flags;		/* 0; other values are -EINVAL */
};

/*
 * Most sites one BPF_STATIC_KEY_UPDATE sets: the sum of max_entries of its
 * maps; past it -E2BIG (docs/abi.md 6). The fds must be open for writing
 * (else -EPERM).
 */
#define BPF_STATIC_KEY_UPDATE_MAX_SITES	65536

/*
 * fd_array_cnt (upstream 6.14, backported by kernel-patches/): the u32 in
 * union bpf_attr's prog-load struct right after prog_token_fd. Maps in
 * fd_array[0..fd_array_cnt) are bound to the program; this is how static-key
 * maps, which no instruction references, reach the verifier.
 */

#endif /* _UAPI_LINUX_BPF_STATIC_KEYS_H */
